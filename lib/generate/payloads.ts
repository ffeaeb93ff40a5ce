/**
 * A generated response (`responses.ts`) dressed as the body a provider answers with: OpenAI chat
 * completions, the OpenAI Responses API, or Anthropic messages, with ids, token counts and finish
 * reasons drawn from the caller's seeded `Rng`.
 */
import type { Call, ResponseCase } from "./responses";
import type { Rng } from "./rng";

export type Shape = "chat" | "responses" | "anthropic";

function argText(call: Call): string {
  return typeof call.args === "string" ? call.args : JSON.stringify(call.args);
}

export function fencedText(c: ResponseCase): string {
  const call = c.calls[0];
  let block = JSON.stringify({ name: call.name, arguments: call.args }, null, 2);
  if (c.fence === "broken") block = block.replace(/"\n {2}}\n}$/, '",\n  }\n}');
  return `${c.text ? `${c.text}\n\n` : ""}\`\`\`json\n${block}\n\`\`\``;
}

function tokens(rng: Rng, c: ResponseCase): { input: number; output: number } {
  const input = rng.int(228, 236);
  const text = c.fence ? fencedText(c) : (c.text ?? "");
  const output = Math.max(6, Math.round(text.length / 4) + c.calls.length * 38 + rng.int(-3, 6));
  return { input, output };
}

export function chatPayload(
  c: ResponseCase,
  model: string,
  created: number,
  rng: Rng,
): Record<string, unknown> {
  const message: Record<string, unknown> = { role: "assistant" };
  const structured = c.fence === undefined && c.calls.length > 0;
  message.content = c.fence ? fencedText(c) : c.text;
  if (structured) {
    message.tool_calls = c.calls.map((call) => ({
      id: `call_${rng.alnum(24)}`,
      type: "function",
      function: { name: call.name, arguments: argText(call) },
    }));
  }
  const t = tokens(rng, c);
  return {
    id: `chatcmpl-${rng.alnum(29)}`,
    object: "chat.completion",
    created,
    model,
    choices: [
      {
        index: 0,
        message,
        logprobs: null,
        finish_reason: c.truncated ? "length" : structured ? "tool_calls" : "stop",
      },
    ],
    usage: { prompt_tokens: t.input, completion_tokens: t.output, total_tokens: t.input + t.output },
  };
}

export function responsesPayload(
  c: ResponseCase,
  model: string,
  created: number,
  maxTokens: number,
  rng: Rng,
): Record<string, unknown> {
  const output: Record<string, unknown>[] = [];
  // A cut-off answer spent its budget reasoning before it got to the call.
  const reasoned = c.truncated || rng.chance(0.3);
  if (reasoned) output.push({ id: `rs_${rng.hex(32)}`, type: "reasoning", summary: [] });
  if (c.text !== null) {
    output.push({
      id: `msg_${rng.hex(32)}`,
      type: "message",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: c.text, annotations: [] }],
    });
  }
  for (const call of c.calls) {
    output.push({
      id: `fc_${rng.hex(32)}`,
      type: "function_call",
      status: c.truncated ? "incomplete" : "completed",
      call_id: `call_${rng.alnum(24)}`,
      name: call.name,
      arguments: argText(call),
    });
  }
  const t = tokens(rng, c);
  const reasoning = c.truncated ? maxTokens - t.output : reasoned ? rng.int(40, 400) : 0;
  const out = t.output + reasoning;
  return {
    id: `resp_${rng.hex(32)}`,
    object: "response",
    created_at: created,
    status: c.truncated ? "incomplete" : "completed",
    incomplete_details: c.truncated ? { reason: "max_output_tokens" } : null,
    model,
    output,
    usage: {
      input_tokens: t.input,
      output_tokens: out,
      output_tokens_details: { reasoning_tokens: reasoning },
      total_tokens: t.input + out,
    },
  };
}

export function anthropicPayload(c: ResponseCase, model: string, rng: Rng): Record<string, unknown> {
  const content: Record<string, unknown>[] = [];
  if (c.text !== null) content.push({ type: "text", text: c.text });
  for (const call of c.calls) {
    content.push({ type: "tool_use", id: `toolu_01${rng.alnum(22)}`, name: call.name, input: call.args });
  }
  const t = tokens(rng, c);
  return {
    id: `msg_01${rng.alnum(22)}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: c.calls.length > 0 ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: t.input, output_tokens: t.output },
  };
}
