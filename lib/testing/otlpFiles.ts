/**
 * OTLP spans for tests, written by hand in the GenAI semantic conventions: chat spans that answer
 * with text or a schedule_window call, one `TracesData` a line as the collector's file exporter
 * writes them.
 */

const TOOLS = JSON.stringify([
  {
    type: "function",
    name: "schedule_window",
    parameters: { type: "object", properties: { user_id: {}, starts_at: {}, timezone: {} } },
  },
]);

/** One chat span: at `second` past the hour, answering with text or a schedule_window call. */
export function chatSpan(
  traceId: string,
  spanId: string,
  second: number,
  answer: { text: string } | { timezone: string },
) {
  const part =
    "text" in answer
      ? { type: "text", content: answer.text }
      : {
          type: "tool_call",
          id: `call_${spanId}`,
          name: "schedule_window",
          arguments: { user_id: "u_9182", starts_at: "2026-09-08T09:00:00", timezone: answer.timezone },
        };
  const start = BigInt(Date.UTC(2026, 8, 8, 9, 0, second)) * 1_000_000n;
  const attr = (key: string, v: string) => ({ key, value: { stringValue: v } });
  return {
    traceId,
    spanId,
    name: "chat gpt-4o",
    kind: 3,
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(start + 500_000_000n),
    attributes: [
      attr("gen_ai.operation.name", "chat"),
      attr("gen_ai.request.model", "gpt-4o"),
      attr("gen_ai.tool.definitions", TOOLS),
      attr(
        "gen_ai.input.messages",
        JSON.stringify([{ role: "user", parts: [{ type: "text", content: "Schedule a window at 09:00." }] }]),
      ),
      attr("gen_ai.output.messages", JSON.stringify([{ role: "assistant", parts: [part] }])),
    ],
  };
}

export const line = (...spans: unknown[]) =>
  JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }] });

export const A = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
export const B = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

/**
 * An agent's file: turn A of three generations (the call in the second by start time), turn B of
 * two with no call; the lines out of their start order.
 */
export function agentTurnsFile(): string {
  return [
    line(chatSpan(A, "a3", 3, { text: "Done: the window is booked." })),
    line(chatSpan(B, "b2", 5, { text: "Which timezone should it be in?" })),
    line(chatSpan(A, "a1", 1, { text: "Let me look at the calendar." })),
    line(chatSpan(A, "a2", 2, { timezone: "UTC" }), chatSpan(B, "b1", 4, { text: "One moment." })),
  ].join("\n");
}
