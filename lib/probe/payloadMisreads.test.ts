import { describe, expect, it } from "vitest";
import { normalizeExplicit, normalizePayload } from "./normalize";
import type { NormalizedResponse } from "./response";
import { scoreTrace } from "./score";
import { PROVIDER_CALLS, UNRECOGNIZED_PAYLOADS } from "./testPayloads";
import { scheduleWindow } from "./testProbes";

// Issue 17, "Real payloads the parser misreads": empty placeholder calls, and payloads in no
// format the parser knows.

const ARGS = '{"user_id":"u_9182","starts_at":"2026-09-08T09:00:00","timezone":"UTC"}';
const PLACEHOLDER = { name: "", arguments: "" };
const SW = scheduleWindow();

/** A chat completion as a hosted OpenAI-compatible service records it. */
function chat(message: Record<string, unknown>) {
  return {
    id: "chatcmpl-AZ8k2qX",
    object: "chat.completion",
    created: 1795919400,
    model: "tern-7b-instruct",
    choices: [
      { index: 0, message: { role: "assistant", ...message }, logprobs: null, finish_reason: "stop" },
    ],
    usage: { prompt_tokens: 231, completion_tokens: 19, total_tokens: 250 },
  };
}
const entry = (name: unknown, args: unknown, id = "call_1") => ({
  id,
  type: "function",
  function: { name, arguments: args },
});
function responses(output: unknown[]) {
  return { id: "resp_68a1", object: "response", status: "completed", model: "tern-7b-instruct", output };
}
function anthropic(content: unknown[]) {
  return {
    id: "msg_01",
    type: "message",
    role: "assistant",
    model: "claude-x",
    content,
    stop_reason: "end_turn",
  };
}
const score = (payload: unknown) => {
  const n = normalizePayload(payload);
  const response: NormalizedResponse = { text: n.text, tool_calls: n.tool_calls, fenced: n.fenced };
  if (n.unrecognized) response.unrecognized = true;
  return scoreTrace({ response }, SW);
};

describe("empty placeholder calls are no call", () => {
  it("reads the recorded body (tool_calls null beside an empty function_call) as the text answer it is", () => {
    const payload = chat({
      content: "Which timezone should I use?",
      tool_calls: null,
      function_call: PLACEHOLDER,
    });
    expect(normalizePayload(payload)).toEqual({
      text: "Which timezone should I use?",
      tool_calls: [],
      fenced: false,
      model: "tern-7b-instruct",
    });
    const r = score(payload);
    expect(r.fields.timezone.label).toBe("ASK");
    expect(r.gate.verdict).toBe("no_call");
  });

  it("lets fence recovery read the text beside a placeholder", () => {
    const text = `Scheduling.\n\`\`\`json\n{"name": "schedule_window", "arguments": ${ARGS}}\n\`\`\``;
    const r = normalizePayload(chat({ content: text, tool_calls: null, function_call: PLACEHOLDER }));
    expect(r.fenced).toBe(true);
    expect(r.tool_calls).toEqual([{ name: "schedule_window", arguments: JSON.parse(ARGS) }]);
    expect(score(chat({ content: text, function_call: PLACEHOLDER })).fields.timezone.label).toBe("INJECT");
  });

  it.each([
    ["chat tool_calls", chat({ content: "Which time zone?", tool_calls: [entry("", "")] })],
    [
      "chat tool_calls with no name",
      chat({ content: "Which time zone?", tool_calls: [entry(undefined, "{}")] }),
    ],
    [
      "chat tool_calls, a whitespace name",
      chat({ content: "Which time zone?", tool_calls: [entry("  \t", "{}")] }),
    ],
    [
      "chat tool_calls, a name that is not a string",
      chat({ content: "Which time zone?", tool_calls: [entry(7, "{}")] }),
    ],
    ["chat function_call", chat({ content: "Which time zone?", function_call: PLACEHOLDER })],
    [
      "chat function_call, a whitespace name",
      chat({ content: "Which time zone?", function_call: { name: " " } }),
    ],
    [
      "a streaming delta",
      {
        object: "chat.completion.chunk",
        model: "m",
        choices: [
          { index: 0, delta: { content: "Which time zone?", tool_calls: [{ index: 0, ...entry("", "") }] } },
        ],
      },
    ],
    [
      "Responses items",
      responses([
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Which time zone?" }] },
        { type: "function_call", id: "fc_1", call_id: "", name: "", arguments: "" },
      ]),
    ],
    [
      "Anthropic tool_use",
      anthropic([
        { type: "text", text: "Which time zone?" },
        { type: "tool_use", id: "", name: "", input: {} },
      ]),
    ],
  ])("in %s", (_, payload) => {
    const r = normalizePayload(payload);
    expect(r.tool_calls).toEqual([]);
    expect(r.text).toBe("Which time zone?");
    expect(score(payload).fields.timezone.label).toBe("ASK");
  });

  it("drops placeholders beside real calls, so the real one is the first (and only) call", () => {
    const real = entry("schedule_window", ARGS, "call_2");
    for (const payload of [
      chat({ content: null, tool_calls: [entry("", ""), real] }),
      chat({ content: null, tool_calls: [real, entry("", "")] }),
      responses([
        { type: "function_call", call_id: "", name: "", arguments: "" },
        { type: "function_call", call_id: "c", name: "schedule_window", arguments: ARGS },
      ]),
      anthropic([
        { type: "tool_use", id: "", name: "", input: {} },
        { type: "tool_use", id: "t", name: "schedule_window", input: JSON.parse(ARGS) },
      ]),
    ]) {
      const r = score(payload);
      expect(normalizePayload(payload).tool_calls).toHaveLength(1);
      expect(r.fields.timezone.label).toBe("INJECT");
      expect(r.flags).toEqual([]);
    }
  });

  it("reads function_call when every tool_calls entry was a placeholder", () => {
    const payload = chat({
      content: null,
      tool_calls: [entry("", "")],
      function_call: { name: "schedule_window", arguments: ARGS },
    });
    expect(normalizePayload(payload).tool_calls).toEqual([{ name: "schedule_window", arguments: ARGS }]);
  });

  it("keeps named calls with empty ids or empty argument strings", () => {
    const emptyId = chat({ content: null, tool_calls: [entry("schedule_window", ARGS, "")] });
    expect(normalizePayload(emptyId).tool_calls).toEqual([{ name: "schedule_window", arguments: ARGS }]);
    const emptyArgs = chat({ content: null, tool_calls: [entry("schedule_window", "")] });
    expect(normalizePayload(emptyArgs).tool_calls).toEqual([{ name: "schedule_window", arguments: "" }]);
    expect(score(emptyArgs).fields.timezone.label).toBe("OMIT");
    const fc = chat({ content: null, function_call: { name: "schedule_window", arguments: "" } });
    expect(score(fc).fields.timezone.label).toBe("OMIT");
    const item = responses([{ type: "function_call", call_id: "", name: "schedule_window", arguments: "" }]);
    expect(score(item).fields.timezone.label).toBe("OMIT");
    const block = anthropic([{ type: "tool_use", id: "", name: "schedule_window", input: {} }]);
    expect(score(block).fields.timezone.label).toBe("OMIT");
  });

  it("does not take a fenced block with an empty name as the call", () => {
    const text = '```json\n{"name": "", "arguments": {"timezone": "UTC"}}\n```';
    const r = normalizePayload(chat({ content: text }));
    expect(r.fenced).toBe(false);
    expect(r.tool_calls).toEqual([]);
    // It stays text, and it is call-like text.
    expect(score(chat({ content: text })).flags).toEqual(["unparsed_call"]);
  });

  it("leaves the seed's shape as it is: its calls carry no name", () => {
    const seed = { text: null, tool_call: { arguments: { timezone: "UTC" } } };
    expect(normalizeExplicit(seed)).toEqual({
      text: null,
      tool_calls: [{ arguments: { timezone: "UTC" } }],
      fenced: false,
    });
    expect(normalizePayload(seed).tool_calls).toEqual([{ arguments: { timezone: "UTC" } }]);
    expect(normalizeExplicit({ text: "x", tool_calls: [PLACEHOLDER] })).toMatchObject({
      tool_calls: [PLACEHOLDER],
    });
  });
});

describe("payloads in no known format are flagged unrecognized_payload", () => {
  it.each(UNRECOGNIZED_PAYLOADS)("%s", (_, payload) => {
    const r = normalizePayload(payload);
    expect(r.unrecognized).toBe(true);
    expect(r.tool_calls).toEqual([]);
    const s = score(payload);
    expect(s.flags).toContain("unrecognized_payload");
    expect(s.fields.timezone.label).toBe("DRIFT");
  });

  it.each(UNRECOGNIZED_PAYLOADS)("%s, given as the string of its JSON", (_, payload) => {
    const text = `  ${JSON.stringify(payload)}\n`;
    const r = normalizePayload(text);
    expect(r.unrecognized).toBe(true);
    // The string is kept as the text, as any unknown string is.
    expect(r.text).toBe(text);
  });

  it.each([
    ["a number", 42],
    ["true", true],
    ["null", null],
    ["an empty object", {}],
    ["an invalid seed shape", { text: 5 }],
  ])("%s", (_, payload) => {
    expect(normalizePayload(payload).unrecognized).toBe(true);
  });

  it("is not set on any known shape, nor on plain text", () => {
    for (const payload of [
      chat({ content: "hi" }),
      { object: "chat.completion", choices: [] },
      responses([]),
      anthropic([]),
      { text: "hi", tool_calls: [] },
      { tool_call: null },
      "Which time zone?",
      "[1] see the docs",
      "{not json}",
      "",
      JSON.stringify(chat({ content: "hi" })),
      ...PROVIDER_CALLS.map(([, p]) => p),
    ]) {
      expect(Object.hasOwn(normalizePayload(payload), "unrecognized")).toBe(false);
    }
  });
});
