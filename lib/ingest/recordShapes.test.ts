import { describe, expect, it } from "vitest";
import { scheduleWindow } from "../probe/testProbes";
import { interpretRecord } from "./traceRecord";

// A record matches a shape only when that shape's own fields are there (DESIGN.md, "Traces from
// other tools"): our response, or the seed's trace, holds text, tool_call or tool_calls; one key
// name (`trace`, `response`) is not enough. The records here are what other tools write.

const SW = scheduleWindow();
const read = (v: unknown) => interpretRecord(v, { probe: SW.id }, () => SW);
const CALL = { name: "schedule_window", arguments: { timezone: "UTC" } };

/** A Langfuse trace downloaded as JSON from its trace page: the trace and its observations. */
const LANGFUSE_TRACE = {
  trace: {
    id: "3b4b1c52-7e1a-4f7e-9d43-5f0b8c1f2a10",
    timestamp: "2026-11-30T09:12:44.120Z",
    name: "scheduling-agent",
    input: { messages: [{ role: "user", content: "Book 9am on Monday" }] },
    output: { role: "assistant", content: null },
    projectId: "p-1",
    tags: [],
  },
  observations: [
    {
      id: "obs-1",
      traceId: "3b4b1c52-7e1a-4f7e-9d43-5f0b8c1f2a10",
      type: "GENERATION",
      model: "gpt-4o-mini",
      output: { role: "assistant", tool_calls: [{ type: "function", function: CALL }] },
    },
  ],
};

/** Ollama's `/api/generate` body (its API reference's example): `response` is the text. */
const OLLAMA_GENERATE = {
  model: "llama3.2",
  created_at: "2023-08-04T19:22:45.499127Z",
  response: "The sky is blue because it is the color of the sky.",
  done: true,
  context: [1, 2, 3],
  total_duration: 5043500667,
};

describe("record shapes are told by their own fields", () => {
  it("rejects a Langfuse trace export, naming what its trace holds and the shapes expected", () => {
    const r = read(LANGFUSE_TRACE);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.misread).toBe(true);
    expect(r.reason).toMatch(
      /^no record shape matches: trace holds none of text, tool_call, tool_calls \(it holds id, timestamp, name, input, output, projectId, tags\)/,
    );
    expect(r.reason).toContain("the seed runner's {label, trace}");
    expect(r.reason).toContain("a provider payload");
  });

  it("rejects {label, trace} whose trace holds no answer, or is no object", () => {
    for (const v of [
      { label: "ASK", trace: {} },
      { label: "ASK", trace: { id: "t" } },
      { trace: "hello" },
      { trace: [CALL] },
    ]) {
      const r = read(v);
      expect(r.ok, JSON.stringify(v)).toBe(false);
      if (!r.ok)
        expect(r.reason, JSON.stringify(v)).toMatch(/^no record shape matches: trace (holds none|is an? )/);
    }
  });

  it("still reads the seed runner's {label, trace} with text or tool_call, even when null", () => {
    for (const [trace, calls] of [
      [{ text: "Which timezone?" }, 0],
      [{ tool_call: CALL }, 1],
      [{ text: null, tool_call: null }, 0],
      [{ tool_calls: [CALL, CALL] }, 2],
    ] as const) {
      const r = read({ label: "ASK", trace });
      expect(r.ok && r.record.form, JSON.stringify(trace)).toBe("seed_runner");
      if (r.ok) expect(r.record.response.tool_calls).toHaveLength(calls);
    }
  });

  it("rejects an Ollama /api/generate body: its string response is not our record's", () => {
    const r = read(OLLAMA_GENERATE);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.misread).toBeUndefined();
      expect(r.reason).toMatch(
        /^no record shape matches: response is a string, not an object holding text, tool_call or tool_calls; expected /,
      );
    }
  });

  it("rejects a response object holding none of text, tool_call, tool_calls, even beside raw", () => {
    for (const v of [
      { response: { status: 200, body: "ok" } },
      { response: {} },
      {
        response: { status: 200 },
        raw: {
          choices: [{ message: { role: "assistant", tool_calls: [{ type: "function", function: CALL }] } }],
        },
      },
    ]) {
      const r = read(v);
      expect(r.ok, JSON.stringify(v)).toBe(false);
      if (!r.ok)
        expect(r.reason, JSON.stringify(v)).toMatch(
          /^no record shape matches: response holds none of text, tool_call, tool_calls \(it holds (status, body|nothing|status)\)/,
        );
    }
  });

  it("reads a provider payload that has a trace key beside its own fields as the payload", () => {
    const chat = {
      object: "chat.completion",
      model: "gpt-4o-mini",
      choices: [
        { message: { role: "assistant", content: null, tool_calls: [{ type: "function", function: CALL }] } },
      ],
      trace: { id: "span-1" },
    };
    const r = read(chat);
    expect(r.ok && r.record.form).toBe("payload");
    if (r.ok) expect(r.record.response.tool_calls).toEqual([CALL]);
  });

  it("still reads our records by response or raw, and the seed's bare trace", () => {
    const ours = read({ response: { text: null, tool_calls: [CALL] } });
    expect(ours.ok && ours.record.form).toBe("trace");
    const raw = read({ raw: "Which timezone?" });
    expect(raw.ok && raw.record.response.text).toBe("Which timezone?");
    const bare = read({ text: "Which timezone?", tool_call: null });
    expect(bare.ok && bare.record.form).toBe("seed_trace");
  });

  it("rejects any other object naming its first keys, and keeps the both-empty reason", () => {
    const r = read({ input: "hi", output: "hello", metadata: {} });
    expect(!r.ok && r.reason).toMatch(
      /^no record shape matches: the record holds input, output, metadata; expected a trace record/,
    );
    const many = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`k${i}${"x".repeat(i === 0 ? 60 : 0)}`, i]),
    );
    expect(!read(many).ok && (read(many) as { reason: string }).reason).toMatch(
      new RegExp(`the record holds k0${"x".repeat(38)}…, k1, k2, k3, k4, k5, k6, k7, …;`),
    );
    const empty = read({ response: null, raw: null });
    expect(empty).toEqual({
      ok: false,
      reason: "response and raw are both empty: a trace record needs one of them",
    });
  });
});
