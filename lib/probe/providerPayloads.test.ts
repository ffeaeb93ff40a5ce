import { describe, expect, it } from "vitest";
import { looksLikeProviderPayload, normalizePayload, payloadLatencyMs, payloadModelOf } from "./normalize";
import type { NormalizedResponse } from "./response";
import { scoreTrace } from "./score";
import {
  BEDROCK_CONVERSE_CALL,
  COHERE_V2_CALL,
  GEMINI_CALL,
  GEMINI_STREAM,
  OLLAMA_CHAT_CALL,
  PROVIDER_CALLS,
} from "./testPayloads";
import { scheduleWindow } from "./testProbes";

// Issue 22: Gemini, Bedrock Converse, Cohere v2 and Ollama payloads, each read in its own shape
// and scored by the one scorer. Recorded bodies are tested in payloadCorpus.test.ts.

const SW = scheduleWindow();
const ARGS = { user_id: "u_9182", starts_at: "2026-09-08T09:00:00", timezone: "UTC" };

const score = (payload: unknown) => {
  const n = normalizePayload(payload);
  const response: NormalizedResponse = { text: n.text, tool_calls: n.tool_calls, fenced: n.fenced };
  if (n.unrecognized) response.unrecognized = true;
  return scoreTrace({ response }, SW);
};

const gemini = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
  candidates: [{ content: { parts, role: "model" }, finishReason: "STOP", index: 0 }],
  modelVersion: "gemini-2.0-flash",
  ...extra,
});
const converse = (content: unknown[]) => ({
  output: { message: { role: "assistant", content } },
  stopReason: "end_turn",
  metrics: { latencyMs: 12 },
});
const cohere = (message: Record<string, unknown>) => ({
  id: "c1",
  finish_reason: "COMPLETE",
  message: { role: "assistant", ...message },
});
const ollama = (message: Record<string, unknown>, done = true) => ({
  model: "qwen2.5:7b",
  created_at: "2026-11-30T02:41:10.5Z",
  message: { role: "assistant", content: "", ...message },
  done,
});

describe("each provider's call is read and scored", () => {
  it.each(PROVIDER_CALLS)("%s", (_, payload) => {
    const n = normalizePayload(payload);
    expect(n.unrecognized).toBeUndefined();
    expect(n.tool_calls).toHaveLength(1);
    expect(n.tool_calls[0]).toMatchObject({ name: "schedule_window" });
    const s = score(payload);
    expect(s.flags).not.toContain("unrecognized_payload");
    expect(s.fields.timezone.label).toBe("INJECT");
    expect(s.gate.verdict).not.toBe("no_call");
    expect(looksLikeProviderPayload(payload)).toBe(true);
    // As the string of its JSON (a `raw` string), the same.
    expect(normalizePayload(JSON.stringify(payload))).toEqual(n);
  });

  it("keeps each provider's arguments as they arrived: an object, or Cohere's JSON string", () => {
    expect(normalizePayload(GEMINI_CALL).tool_calls).toEqual([{ name: "schedule_window", arguments: ARGS }]);
    expect(normalizePayload(BEDROCK_CONVERSE_CALL).tool_calls).toEqual([
      { name: "schedule_window", arguments: ARGS },
    ]);
    expect(normalizePayload(OLLAMA_CHAT_CALL).tool_calls).toEqual([
      { name: "schedule_window", arguments: ARGS },
    ]);
    expect(normalizePayload(COHERE_V2_CALL).tool_calls).toEqual([
      { name: "schedule_window", arguments: JSON.stringify(ARGS) },
    ]);
  });

  it("reads a Cohere call whose JSON string does not parse as the scorer's ERROR, not as no call", () => {
    const broken = cohere({
      tool_calls: [
        { id: "t", type: "function", function: { name: "schedule_window", arguments: '{"user_id":' } },
      ],
    });
    expect(normalizePayload(broken).tool_calls).toEqual([
      { name: "schedule_window", arguments: '{"user_id":' },
    ]);
    expect(score(broken).fields.timezone.label).toBe("ERROR");
  });
});

describe("text beside calls, several calls, and what is not the answer", () => {
  it("Gemini: text parts joined, thought parts left out, every functionCall in order", () => {
    const payload = gemini([
      { text: "Let me think about time zones.", thought: true },
      { text: "Scheduling " },
      { text: "now." },
      { functionCall: { name: "schedule_window", args: ARGS } },
      { functionCall: { name: "lookup_user", args: { id: "u_9182" } } },
      { executableCode: { code: "print(1)" } },
    ]);
    const n = normalizePayload(payload);
    expect(n.text).toBe("Scheduling now.");
    expect(n.tool_calls).toEqual([
      { name: "schedule_window", arguments: ARGS },
      { name: "lookup_user", arguments: { id: "u_9182" } },
    ]);
    expect(n.model).toBe("gemini-2.0-flash");
    expect(score(payload).flags).toContain("multi_call");
  });

  it("Gemini: a call written function_call (the Python SDK's model_dump) is read as functionCall is", () => {
    const payload = gemini([
      { text: "Booking." },
      { function_call: { name: "schedule_window", args: ARGS } },
    ]);
    expect(normalizePayload(payload)).toMatchObject({
      text: "Booking.",
      tool_calls: [{ name: "schedule_window", arguments: ARGS }],
    });
    // An empty placeholder name is no call, in either spelling.
    expect(normalizePayload(gemini([{ function_call: { name: "", args: {} } }])).tool_calls).toEqual([]);
  });

  it("Gemini: only the first candidate, as chat's first choice", () => {
    const payload = {
      candidates: [
        { content: { parts: [{ text: "Which time zone?" }], role: "model" }, index: 0 },
        { content: { parts: [{ functionCall: { name: "schedule_window", args: ARGS } }] }, index: 1 },
      ],
    };
    expect(normalizePayload(payload)).toMatchObject({ text: "Which time zone?", tool_calls: [] });
    expect(score(payload).fields.timezone.label).toBe("ASK");
  });

  it("Gemini: a candidate that only says why it stopped is an empty answer, not an unknown shape", () => {
    const blocked = { candidates: [{ finishReason: "SAFETY", index: 0 }], modelVersion: "gemini-2.0-flash" };
    expect(normalizePayload(blocked)).toEqual({
      text: null,
      tool_calls: [],
      fenced: false,
      model: "gemini-2.0-flash",
    });
  });

  it("Bedrock: text blocks joined, reasoningContent left out, every toolUse in order", () => {
    const payload = converse([
      { reasoningContent: { reasoningText: { text: "The user wants a window." } } },
      { text: "I'll schedule it." },
      { toolUse: { toolUseId: "a", name: "schedule_window", input: ARGS } },
      { toolUse: { toolUseId: "b", name: "schedule_window", input: { ...ARGS, timezone: "CET" } } },
    ]);
    const n = normalizePayload(payload);
    expect(n.text).toBe("I'll schedule it.");
    expect(n.tool_calls).toHaveLength(2);
    expect(n.model).toBeNull();
    expect(score(payload).flags).toContain("multi_call");
  });

  it("Cohere v2: content text parts joined; tool_plan and thinking are not the answer", () => {
    const payload = cohere({
      tool_plan: "Which time zone? I will ask.",
      content: [
        { type: "thinking", thinking: "Maybe UTC?" },
        { type: "text", text: "Which time " },
        { type: "text", text: "zone should I use?" },
      ],
    });
    expect(normalizePayload(payload)).toMatchObject({
      text: "Which time zone should I use?",
      tool_calls: [],
    });
    expect(score(payload).fields.timezone.label).toBe("ASK");
    const planOnly = normalizePayload(COHERE_V2_CALL);
    expect(planOnly.text).toBeNull();
  });

  it("Ollama: content a string beside calls; thinking is not the answer", () => {
    const payload = ollama({
      content: "Which time zone?",
      thinking: "I should call schedule_window.",
      tool_calls: [
        { function: { name: "schedule_window", arguments: ARGS } },
        { id: "call_2", function: { index: 1, name: "schedule_window", arguments: ARGS } },
      ],
    });
    const n = normalizePayload(payload);
    expect(n.text).toBe("Which time zone?");
    expect(n.tool_calls).toEqual([
      { name: "schedule_window", arguments: ARGS },
      { name: "schedule_window", arguments: ARGS },
    ]);
    expect(score(payload).flags).toEqual(expect.arrayContaining(["multi_call", "ask_and_call"]));
  });

  it("drops empty-name placeholders in every new shape", () => {
    for (const payload of [
      gemini([{ text: "Which time zone?" }, { functionCall: { name: "", args: {} } }]),
      converse([{ text: "Which time zone?" }, { toolUse: { toolUseId: "", name: " ", input: {} } }]),
      cohere({
        content: [{ type: "text", text: "Which time zone?" }],
        tool_calls: [{ function: { name: "", arguments: "" } }],
      }),
      ollama({ content: "Which time zone?", tool_calls: [{ function: { name: "", arguments: {} } }] }),
    ]) {
      expect(normalizePayload(payload)).toMatchObject({ text: "Which time zone?", tool_calls: [] });
      expect(score(payload).fields.timezone.label).toBe("ASK");
    }
  });

  it("recovers a fenced call from the text when the payload has no structured one", () => {
    const text = `Calling.\n\`\`\`json\n{"name": "schedule_window", "arguments": ${JSON.stringify(ARGS)}}\n\`\`\``;
    for (const payload of [
      gemini([{ text }]),
      converse([{ text }]),
      cohere({ content: [{ type: "text", text }] }),
      ollama({ content: text }),
    ]) {
      const n = normalizePayload(payload);
      expect(n.fenced).toBe(true);
      expect(n.tool_calls).toEqual([{ name: "schedule_window", arguments: ARGS }]);
    }
  });
});

describe("streamed answers recorded as arrays of chunks", () => {
  it("Gemini: the chunks' parts read as one answer", () => {
    const n = normalizePayload(GEMINI_STREAM);
    expect(n).toMatchObject({ text: "Which time zone?", tool_calls: [] });
    expect(n.unrecognized).toBeUndefined();
    expect(score(GEMINI_STREAM).fields.timezone.label).toBe("ASK");
    const withCall = [...GEMINI_STREAM, gemini([{ functionCall: { name: "schedule_window", args: ARGS } }])];
    expect(normalizePayload(withCall).tool_calls).toEqual([{ name: "schedule_window", arguments: ARGS }]);
    expect(normalizePayload(withCall).model).toBe("gemini-2.0-flash");
    expect(payloadModelOf(withCall)).toBe("gemini-2.0-flash");
    expect(payloadModelOf(JSON.stringify(withCall))).toBe("gemini-2.0-flash");
  });

  it("Ollama: content pieces joined, calls from any chunk", () => {
    const chunks = [
      ollama({ content: "Scheduling" }, false),
      ollama(
        { content: "", tool_calls: [{ function: { name: "schedule_window", arguments: ARGS } }] },
        false,
      ),
      ollama({ content: "." }, true),
    ];
    expect(normalizePayload(chunks)).toMatchObject({
      text: "Scheduling.",
      tool_calls: [{ name: "schedule_window", arguments: ARGS }],
      model: "qwen2.5:7b",
    });
    expect(score(chunks).fields.timezone.label).toBe("INJECT");
  });

  it("chat completion chunks: a call's fragments glued by index across chunks", () => {
    const chunk = (delta: Record<string, unknown>) => ({
      object: "chat.completion.chunk",
      model: "gpt-4o",
      choices: [{ index: 0, delta }],
    });
    const args = JSON.stringify(ARGS);
    const chunks = [
      chunk({ role: "assistant", content: null }),
      chunk({
        tool_calls: [
          { index: 0, id: "c", type: "function", function: { name: "schedule_window", arguments: "" } },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, 20) } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(20) } }] }),
      { object: "chat.completion.chunk", model: "gpt-4o", choices: [], usage: { total_tokens: 9 } },
    ];
    const n = normalizePayload(chunks);
    expect(n.tool_calls).toEqual([{ name: "schedule_window", arguments: args }]);
    expect(n.model).toBe("gpt-4o");
    expect(score(chunks).fields.timezone.label).toBe("INJECT");
  });

  it("a list of complete chat completions is no stream", () => {
    const done = { object: "chat.completion", choices: [{ index: 0, message: { content: "hi" } }] };
    expect(normalizePayload([done, done]).unrecognized).toBe(true);
  });
});

describe("the latency a payload states", () => {
  it("is Bedrock's metrics.latencyMs and Ollama's total_duration in milliseconds", () => {
    expect(payloadLatencyMs(BEDROCK_CONVERSE_CALL)).toBe(1234);
    expect(payloadLatencyMs(OLLAMA_CHAT_CALL)).toBe(885.095291);
    expect(payloadLatencyMs(JSON.parse(JSON.stringify([ollama({}, false), OLLAMA_CHAT_CALL])))).toBe(
      885.095291,
    );
  });

  it("is null for other payloads and for values that are no duration", () => {
    for (const v of [
      GEMINI_CALL,
      COHERE_V2_CALL,
      { ...BEDROCK_CONVERSE_CALL, metrics: { latencyMs: -1 } },
      { ...BEDROCK_CONVERSE_CALL, metrics: { latencyMs: "12" } },
      { ...BEDROCK_CONVERSE_CALL, metrics: 12 },
      { ...OLLAMA_CHAT_CALL, total_duration: Number.POSITIVE_INFINITY },
      { ...OLLAMA_CHAT_CALL, total_duration: null },
      // A latency-like field on a body in no known shape is not read.
      { metrics: { latencyMs: 5 }, message: "x" },
      { total_duration: 5, done: true },
      [],
      null,
      "text",
    ]) {
      expect(payloadLatencyMs(v)).toBeNull();
    }
  });
});
