import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chooseFormat, detectFormat, readHead } from "./detect";
import { JsonScanner, type ScannedValue } from "./jsonScanner";
import { readPromptfooResult, redactResultBytes, redactSecrets, selectPromptfooResult } from "./promptfoo";

const FILE = join(import.meta.dirname, "..", "..", "fixtures", "testdata", "promptfoo", "eval-results.json");
const bytes = readFileSync(FILE);

/** Every result of the file, its own bytes, as the ingest's scanner cuts them. */
function results(b: Buffer): ScannedValue[] {
  const s = new JsonScanner({ select: selectPromptfooResult, maxBytes: 1 << 20 });
  return [...s.push(b), ...s.end()];
}
const gen = (v: unknown) => {
  const r = readPromptfooResult(v);
  if (r.kind !== "generation") throw new Error(JSON.stringify(r));
  return r.generation;
};
const ARGS = (tz: string) => `{"user_id":"u_9182","starts_at":"2026-09-08T09:00:00","timezone":"${tz}"}`;

describe("promptfoo results", () => {
  it("are told by results holding results with provider and response", () => {
    expect(detectFormat(readHead(bytes))).toMatchObject({ format: "promptfoo" });
    // One key alone is not enough.
    expect(detectFormat(readHead(Buffer.from('{"results":{"results":[{"provider":"x"}]}}')))).toMatchObject({
      format: "trace",
    });
    expect(detectFormat(readHead(Buffer.from('{"results":[{"provider":"x","response":{}}]}')))).toMatchObject(
      {
        format: "trace",
      },
    );
  });

  it("reads the captured file (promptfoo 0.121.20): a call list, a text, a message object and JSON strings of each", () => {
    const got = results(bytes).map((v) => {
      const g = gen(JSON.parse(v.bytes.toString("utf8")));
      return [g.requestModel?.startsWith("http://127.0.0.1:") ? "http" : g.requestModel, g.text, g.toolCalls];
    });
    const call = (tz: string) => [{ name: "schedule_window", arguments: ARGS(tz) }];
    expect(got).toEqual([
      ["openai:chat:gpt-4o-mini", null, call("Asia/Tokyo")],
      ["http", null, call("Asia/Tokyo")],
      ["openai:chat:gpt-4o-mini", "Which time zone should the window use?", []],
      ["http", "Which time zone should the window use?", []],
      ["openai:chat:gpt-4o-mini", "Booking it now.", call("UTC")],
      ["http", "Booking it now.", call("UTC")],
    ]);
    const first = gen(JSON.parse(results(bytes)[0].bytes.toString("utf8")));
    expect(first).toMatchObject({
      extId: "7c3346c5-82ec-4e83-aa0d-1c0f76f14f40",
      latencyMs: 20,
      worldState: {
        user_id: { status: "known", value: "u_9182", source: "state" },
        timezone: { status: "known", value: "Asia/Tokyo", source: "state" },
      },
      worldStateFrom: "vars.world_state",
    });
    // Each result's bytes are as they stand in the file.
    for (const v of results(bytes)) expect(bytes.includes(v.bytes)).toBe(true);
  });

  it("reads a text that merely looks like JSON as text, and a world state given as a JSON string", () => {
    const r = (output: unknown, vars: unknown = {}) =>
      gen({ id: "r1", provider: { id: "p" }, response: { output }, vars });
    expect(r('{"answer": 42}')).toMatchObject({ text: '{"answer": 42}', toolCalls: [] });
    expect(r("[1, 2]")).toMatchObject({ text: "[1, 2]", toolCalls: [] });
    expect(r("plain")).toMatchObject({ text: "plain", style: "promptfoo" });
    expect(r('[{"function":{"name":"a","arguments":"{}"}}]')).toMatchObject({
      text: null,
      toolCalls: [{ name: "a", arguments: "{}" }],
    });
    expect(r("x", { world_state: '{"user":{"id":"u1"}}' }).worldState).toEqual({ user: { id: "u1" } });
    // A provider's own shape (Anthropic blocks) goes to the payload parser.
    expect(r({ content: [{ type: "tool_use", name: "a", input: {} }] })).toMatchObject({ style: "payload" });
    expect(r(null)).toMatchObject({ style: "none" });
  });

  it("rejects a result without a provider id or a response, and a provider's error without echoing it", () => {
    expect(readPromptfooResult({ response: { output: "x" } })).toEqual({
      kind: "error",
      reason: "provider: needs an id (the model)",
    });
    const failed = readPromptfooResult({
      provider: { id: "openai:chat:gpt-4o" },
      error: "401 Incorrect API key provided: sk-live-LEAK",
      response: { error: "401 Incorrect API key provided: sk-live-LEAK" },
    });
    expect(failed.kind).toBe("error");
    expect(JSON.stringify(failed)).not.toContain("sk-live-LEAK");
    expect(
      readPromptfooResult({
        provider: { id: "p" },
        response: { output: { role: "assistant", tool_calls: [1] } },
      }),
    ).toMatchObject({ kind: "error", reason: expect.stringContaining("response.output.tool_calls") });
  });
});

describe("redactSecrets", () => {
  it("replaces every credential's value, keeping every other byte", () => {
    const t =
      '{"provider": {"id": "openai:chat", "config": {"apiKey": "sk-1", "headers": {"Authorization" : "Bearer sk-2"}, "OPENAI_API_KEY": {"a": ["}"]}, "api_key": 7}}, "tokenUsage": {"total": 1}}';
    expect(redactSecrets(t)).toBe(
      '{"provider": {"id": "openai:chat", "config": {"apiKey": "[REDACTED]", "headers": {"Authorization" : "[REDACTED]"}, "OPENAI_API_KEY": "[REDACTED]", "api_key": "[REDACTED]"}}, "tokenUsage": {"total": 1}}',
    );
    // Nothing to redact: null, and the bytes stay the same buffer.
    expect(redactSecrets('{"apiKey": "[REDACTED]", "x": "apiKey"}')).toBeNull();
    const clean = Buffer.from('{"apiKey": null, "text": "my apiKey is hidden"}');
    expect(redactResultBytes(clean)).toBe(clean);
    // An escaped key name is still the key.
    expect(redactSecrets('{"api\\u004bey": "sk-3"}')).toBe('{"api\\u004bey": "[REDACTED]"}');
  });

  it("redacts a secret cut off at the end of kept bytes", () => {
    expect(redactSecrets('{"response": {"output": "x"}, "config": {"apiKey": "sk-cut')).toBe(
      '{"response": {"output": "x"}, "config": {"apiKey": "[REDACTED]"',
    );
  });
});

describe("redactSecrets in JSON held in strings", () => {
  it("redacts a credential inside a string that holds JSON, writing only that string again", () => {
    const inner = JSON.stringify({ OPENAI_API_KEY: "sk-4", model: "m" });
    const t = `{"vars": {"env": ${JSON.stringify(inner)}}, "raw": "{\\"a\\": 1}"}`;
    const out = redactSecrets(t);
    expect(out).not.toBeNull();
    expect(out).not.toContain("sk-4");
    expect(JSON.parse(JSON.parse(out as string).vars.env)).toEqual({
      OPENAI_API_KEY: "[REDACTED]",
      model: "m",
    });
    expect(out?.endsWith(`"raw": "{\\"a\\": 1}"}`)).toBe(true);
  });
});

describe("--format promptfoo", () => {
  it("is refused on a file with none of its fields, naming them, and on another format's file", () => {
    const asked = chooseFormat("promptfoo", readHead(Buffer.from('{"response":{"text":"hi"}}\n')));
    expect("error" in asked && asked.error).toMatch(
      /^--format promptfoo, but the file has none of that format's fields \(results holding results with provider and response\)/,
    );
    expect(chooseFormat("otlp", readHead(bytes))).toEqual({
      error: expect.stringContaining("the file is promptfoo"),
    });
    expect(chooseFormat("promptfoo", readHead(bytes))).toMatchObject({ format: "promptfoo" });
  });
});
