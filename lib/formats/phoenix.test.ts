import { describe, expect, it } from "vitest";
import { detectFormat, readHead } from "./detect";
import { readPhoenixSpan } from "./phoenix";

describe("readPhoenixSpan", () => {
  it("reads a flattened row of Phoenix's spans dataframe (context.* and attributes.* columns)", () => {
    const row = {
      name: "ChatCompletion",
      span_kind: "LLM",
      "context.trace_id": "t1",
      "context.span_id": "s1",
      start_time: "2025-03-04T10:00:00.000Z",
      end_time: "2025-03-04T10:00:00.500Z",
      "attributes.llm.model_name": "gpt-4o-mini",
      "attributes.llm.output_messages": [
        {
          "message.role": "assistant",
          "message.tool_calls": [{ "tool_call.function.name": "book", "tool_call.function.arguments": "{}" }],
        },
      ],
      "attributes.input.value": null,
    };
    expect(detectFormat(readHead(Buffer.from(`${JSON.stringify(row)}\n`)))).toMatchObject({
      format: "phoenix",
    });
    expect(readPhoenixSpan(row)).toEqual({
      kind: "generation",
      generation: {
        traceId: "t1",
        spanId: "s1",
        requestModel: null,
        responseModel: "gpt-4o-mini",
        text: null,
        toolCalls: [{ name: "book", arguments: "{}" }],
        offeredTools: [],
        style: "openinference",
        startedAt: "2025-03-04T10:00:00.000Z",
        latencyMs: 500,
      },
    });
  });

  it("skips spans of other kinds and rejects a span without its ids", () => {
    expect(
      readPhoenixSpan({ context: { trace_id: "t", span_id: "s" }, span_kind: "TOOL", attributes: {} }),
    ).toEqual({
      kind: "skip",
    });
    expect(readPhoenixSpan({ span_kind: "LLM", attributes: {} })).toMatchObject({ kind: "error" });
    expect(
      readPhoenixSpan({ context: { trace_id: "t", span_id: "s" }, span_kind: "LLM", attributes: [] }),
    ).toMatchObject({ kind: "error", reason: "attributes: must be an object" });
  });
});
