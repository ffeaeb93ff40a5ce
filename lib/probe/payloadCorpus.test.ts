import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { interpretRecord } from "../ingest/traceRecord";
import { looksLikeProviderPayload, normalizePayload } from "./normalize";
import { scheduleWindow } from "./testProbes";

// Real response bodies recorded by public SDK test suites (fixtures/payloads, sources and
// licences in its SOURCES.md). What each holds was written by hand from reading the body: the
// model's answer text (or how it starts, for long ones) and its calls with their arguments as
// recorded (an object, or a JSON string). Not snapshots of the parser.

const DIR = join(__dirname, "..", "..", "fixtures", "payloads");

interface Expected {
  /** The answer text exactly; or `{starts}` for a long one; null when the body has none. */
  text: string | null | { starts: string };
  calls: { name: string; arguments?: unknown }[];
  model: string | null;
  /** The body is no answer the parser can read (an error body). */
  unrecognized?: true;
  /** How long the call took, when the body says so (Bedrock's metrics, Ollama's total_duration). */
  latencyMs?: number;
}

const EXPECTED: Record<string, Expected> = {
  // Gemini generateContent: functionCall parts; thought parts are reasoning, not the answer.
  "gemini-three-calls.json": {
    text: null,
    calls: [
      { name: "generate_topic", arguments: {} },
      { name: "generate_topic", arguments: {} },
      { name: "generate_topic", arguments: {} },
    ],
    model: "gemini-3-flash-preview",
  },
  "gemini-call-without-args.json": {
    text: null,
    calls: [{ name: "bar", arguments: {} }],
    model: "gemini-2.0-flash",
  },
  "gemini-call.json": {
    text: null,
    calls: [{ name: "get_capital", arguments: { country: "France" } }],
    model: "gemini-2.5-pro",
  },
  "gemini-text.json": {
    text: { starts: "As an AI, I don't retain memory of past interactions" },
    calls: [],
    model: "gemini-2.5-flash",
  },
  "gemini-thought-and-text.json": {
    text: { starts: "Crossing the street safely is a fundamental skill" },
    calls: [],
    model: "gemini-3-pro-preview",
  },
  // Two streamed chunks: the call, then an empty text part with the finish reason.
  "gemini-stream-call.json": {
    text: "",
    calls: [{ name: "get_country", arguments: {} }],
    model: "gemini-3-pro-preview",
  },
  "gemini-stream-call-args.json": {
    text: null,
    calls: [{ name: "get_capital", arguments: { country: "France" } }],
    model: "gemini-2.0-flash",
  },
  // Bedrock Converse: toolUse blocks; reasoningContent is not the answer; no model in the body.
  "bedrock-reasoning-and-call.json": {
    text: null,
    calls: [{ name: "get_temperature", arguments: { city: "London" } }],
    model: null,
    latencyMs: 1169,
  },
  "bedrock-text.json": {
    text: " <think> The temperature in London is 30°C.",
    calls: [],
    model: null,
    latencyMs: 534,
  },
  "bedrock-reasoning-text-and-call.json": {
    text: "I'll need to check what country you're from to answer that question.",
    calls: [{ name: "get_user_country", arguments: {} }],
    model: null,
    latencyMs: 3896,
  },
  "bedrock-text-and-call.json": {
    text: { starts: "<thinking> To determine the capital of France, I can use the provided tool" },
    calls: [{ name: "get_capital", arguments: { country: "France" } }],
    model: null,
    latencyMs: 581,
  },
  "bedrock-call.json": {
    text: null,
    calls: [{ name: "temperature", arguments: { city: "London", date: "2022-01-01" } }],
    model: null,
    latencyMs: 401,
  },
  "bedrock-error.json": { text: null, calls: [], model: null, unrecognized: true },
  // Cohere v2: message.tool_calls with arguments as a JSON string; tool_plan is not the answer.
  "cohere-call.json": {
    text: null,
    calls: [{ name: "get_weather", arguments: '{"city":"Paris"}' }],
    model: null,
  },
  "cohere-call-required.json": {
    text: null,
    calls: [{ name: "get_weather", arguments: '{"city":"Paris"}' }],
    model: null,
  },
  "cohere-text.json": {
    text: { starts: "I can provide you with the weather in Paris, but I'll need to know the specific date" },
    calls: [],
    model: null,
  },
  "cohere-text-simple.json": { text: "Hello! How can I assist you today?", calls: [], model: null },
  // Ollama /api/chat: message.tool_calls with arguments as an object; content "" beside a call.
  "ollama-call.json": {
    text: "",
    calls: [{ name: "get_weather", arguments: { city: "Tokyo" } }],
    model: "llama3.2",
    latencyMs: 3244.883583,
  },
  "ollama-call-two-args.json": {
    text: "",
    calls: [{ name: "get_current_weather", arguments: { format: "celsius", location: "Paris, FR" } }],
    model: "llama3.2",
    latencyMs: 885.095291,
  },
  "ollama-stream-chunk-call.json": {
    text: "",
    calls: [{ name: "get_weather", arguments: { city: "Tokyo" } }],
    model: "llama3.2",
  },
  "ollama-text.json": {
    text: "The current temperature in Toronto is 11°C.",
    calls: [],
    model: "llama3.2",
    latencyMs: 890.77175,
  },
  // OpenAI and Anthropic, read before: the corpus keeps them read.
  "openai-chat-call.json": {
    text: null,
    calls: [{ name: "get_temperature", arguments: '{"city":"Tokyo"}' }],
    model: "gpt-4.1-mini-2025-04-14",
  },
  "openai-chat-call-without-id.json": {
    text: null,
    calls: [{ name: "get_current_time", arguments: "{}" }],
    model: "gemini-2.5-pro-preview-05-06",
  },
  "openai-responses-call.json": {
    text: null,
    calls: [
      { name: "get_location", arguments: '{"loc_name":"Londos"}' },
      { name: "get_location", arguments: '{"loc_name":"London"}' },
    ],
    model: "gpt-4o-2024-08-06",
  },
  "openai-responses-reasoning-and-text.json": {
    text: { starts: "I'm happy to help with some general safety guidelines." },
    calls: [],
    model: "o3-mini-2025-01-31",
  },
  "anthropic-call.json": {
    text: null,
    calls: [{ name: "get_user_country", arguments: {} }],
    model: "claude-sonnet-4-5-20250929",
  },
  "anthropic-parallel-calls.json": {
    text: { starts: "I'll help you find out who is the youngest" },
    calls: ["Alice", "Bob", "Charlie", "Daisy"].map((name) => ({
      name: "retrieve_entity_info",
      arguments: { name },
    })),
    model: "claude-haiku-4-5-20251001",
  },
};

const FILES = readdirSync(DIR).filter((f) => f.endsWith(".json"));
const body = (file: string): unknown => JSON.parse(readFileSync(join(DIR, file), "utf8"));

describe("recorded provider payloads", () => {
  it("has an expectation for every file, and a file for every expectation", () => {
    expect(FILES.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it("names every file in SOURCES.md", () => {
    const sources = readFileSync(join(DIR, "SOURCES.md"), "utf8");
    for (const f of FILES) expect(sources).toContain(`\`${f}\``);
  });

  it.each(FILES)("%s", (file) => {
    const want = EXPECTED[file];
    const raw = body(file);
    const n = normalizePayload(raw);
    expect(n.tool_calls).toEqual(want.calls);
    if (want.text !== null && typeof want.text === "object") {
      expect(n.text?.startsWith(want.text.starts)).toBe(true);
    } else expect(n.text).toBe(want.text);
    expect(n.model).toBe(want.model);
    expect(n.unrecognized ?? false).toBe(want.unrecognized ?? false);
    expect(n.fenced).toBe(false);
    // The same body as a string of its JSON (as a `raw` string) reads the same.
    if (!want.unrecognized) expect(normalizePayload(JSON.stringify(raw))).toEqual(n);
    // A bare body on a line of its own is taken as a payload (a stream is not a record).
    if (!Array.isArray(raw)) expect(looksLikeProviderPayload(raw)).toBe(!want.unrecognized);
  });

  // The ingest's record reader, as `score`, `ingest` and the upload page use it.
  const SW = scheduleWindow();
  const interpret = (v: unknown) => interpretRecord(v, { probe: SW.id }, () => SW);

  it.each(FILES)("%s, as the raw of a trace record and as a bare record", (file) => {
    const want = EXPECTED[file];
    const raw = body(file);
    const asRaw = interpret({ probe: SW.id, raw });
    if (!asRaw.ok) throw new Error(asRaw.reason);
    expect(asRaw.record.response.tool_calls).toEqual(want.calls);
    expect(asRaw.record.payloadModel).toBe(want.model);
    expect(asRaw.record.response.unrecognized ?? false).toBe(want.unrecognized ?? false);
    expect(asRaw.record.latency_ms).toBe(want.latencyMs);
    // A latency the record gives wins over the body's.
    const given = interpret({ probe: SW.id, raw, latency_ms: 7 });
    expect(given.ok && given.record.latency_ms).toBe(7);
    if (Array.isArray(raw) || want.unrecognized) return;
    const bare = interpret(raw);
    if (!bare.ok) throw new Error(bare.reason);
    expect(bare.record.form).toBe("payload");
    expect(bare.record.response.tool_calls).toEqual(want.calls);
    expect(bare.record.latency_ms).toBe(want.latencyMs);
  });
});
