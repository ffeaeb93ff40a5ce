import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spanParts } from "../ingest/spanRecord";
import { chooseFormat, detectFormat, readHead } from "./detect";
import { JsonScanner } from "./jsonScanner";
import { type LangfuseLayout, readLangfuseObservation, selectLangfuseObservation } from "./langfuse";

/**
 * Real Langfuse exports (fixtures/langfuse/SOURCES.md). Every expected text and call below was
 * written by hand from the file's own observations.
 */
const DIR = join(import.meta.dirname, "..", "..", "fixtures", "langfuse");
const file = (name: string) => readFileSync(join(DIR, name));

interface Read {
  id: string;
  text: string | null;
  calls: unknown[];
}

/** The observations of a file as the ingest cuts them, and what each reads as (normalized as stored). */
function readFile(name: string): { generations: Read[]; skipped: number; layout: LangfuseLayout } {
  const bytes = file(name);
  const d = detectFormat(readHead(bytes));
  if ("error" in d || d.format !== "langfuse" || d.observations === undefined)
    throw new Error(`not langfuse: ${JSON.stringify(d)}`);
  const scanner = new JsonScanner({ select: selectLangfuseObservation(d.observations), maxBytes: 1 << 22 });
  const values = [...scanner.push(bytes), ...scanner.end()];
  const generations: Read[] = [];
  let skipped = 0;
  for (const v of values) {
    expect(v.error).toBeUndefined();
    const r = readLangfuseObservation(JSON.parse(v.bytes.toString("utf8")));
    if (r.kind === "skip") skipped++;
    if (r.kind !== "generation") continue;
    const parts = spanParts(r.generation);
    if ("error" in parts) throw new Error(parts.error);
    generations.push({
      id: r.generation.spanId,
      text: parts.response.text,
      calls: parts.response.tool_calls,
    });
  }
  return { generations, skipped, layout: d.observations };
}

function generationOf(obs: Record<string, unknown>) {
  const r = readLangfuseObservation(obs);
  if (r.kind !== "generation") throw new Error(JSON.stringify(r));
  return r.generation;
}

const obsOf = (name: string, id: string) =>
  (JSON.parse(file(name).toString("utf8")).observations as Record<string, unknown>[]).find(
    (o) => o.id === id,
  ) ?? {};

const call = (name: string, args: unknown) => ({ name, arguments: args });
const said = (id: string, text: string | RegExp): Read => ({
  id,
  text: typeof text === "string" ? text : expect.stringMatching(text),
  calls: [],
});
const called = (id: string, ...calls: unknown[]): Read => ({ id, text: null, calls });

interface Download {
  file: string;
  shape: string;
  /** Every generation, in the file's order. */
  generations: Read[];
  /** Observations of other types (and the Vercel AI SDK's outer call). */
  skipped: number;
  /** One generation's request: [observation id, tools offered, model requested, model that answered]. */
  request: [string, string[], string | null, string | null];
}

const MICROSOFT = [
  called("2406e8343fd49c0e", call("get_weather", '{"location":"Tokyo, Japan"}')),
  said("b0913e7cd82d72b8", "Current conditions in Tokyo, Japan: stormy, high around 23°C."),
];
const ADK = [
  said("bded677884f031ce", "Hello Langfuse 👋!\n"),
  called("f6e4c65297e40c96", call("say_hello", {})),
];
const TOPIC = { topic: "programming" };

const DOWNLOADS: Download[] = [
  {
    file: "openai-agents-2025-09-30.trace.json",
    shape: "OpenAI Agents SDK: Responses bodies as JSON strings, a function_call item and a message",
    generations: [
      said(
        "90d94774e8e3724d",
        "The weather in Tokyo is currently sunny. If you need more details like temperature or forecast for the upcoming days, just let me know!",
      ),
      called("98870087af69bf06", call("get_weather", '{"city":"Tokyo"}')),
    ],
    skipped: 3,
    request: ["98870087af69bf06", ["get_weather"], "gpt-4.1-2025-04-14", "gpt-4.1-2025-04-14"],
  },
  {
    file: "claude-agent-2025-12-22.trace.json",
    shape: "Claude Agent SDK: Anthropic content blocks, tool_use input as the arguments",
    generations: [
      said(
        "371496f71d82baed",
        "Great! Here's the current weather for both cities:\n\n**Berlin**: Cloudy, 59°F (15°C)\n**New York**: Sunny, 75°F (24°C)\n\nNew York is enjoying warmer, sunny weather while Berlin is a bit cooler with cloudy skies. Is there anything else you'd like to know about these destinations?",
      ),
      called("f8e8f040dc94e67e", call("mcp__weather__get_weather", { city: "New York" })),
      called("2cc13e77781787fd", call("mcp__weather__get_weather", { city: "Berlin" })),
      said("e9aac170e5d48125", "I'll check the weather in both Berlin and New York for you."),
    ],
    skipped: 3,
    request: ["f8e8f040dc94e67e", [], "claude-sonnet-4-5-20250929", null],
  },
  {
    file: "vercel-aisdk-2025-11-17.trace.json",
    shape:
      "Vercel AI SDK: the doGenerate call's tool calls, its tools in metadata.tools; the outer ai.generateText repeating it is skipped",
    generations: [called("91a17a2274bfd23f", call("getWeather", '{"location":"San Francisco"}'))],
    skipped: 2,
    request: ["91a17a2274bfd23f", ["getWeather"], "gpt-5", "gpt-5-2025-08-07"],
  },
  {
    file: "langgraph-python-2025-08-22.trace.json",
    shape:
      "LangGraph (Python): additional_kwargs.tool_calls, the bound tool a role tool message, ls_model_name the request's model",
    generations: [
      called("4f6535aaebcda355", call("Web-Search", '{"query":"example"}')),
      said(
        "5ba09605e0929d78",
        'The search for "example" primarily leads to the website [example.com](https://example.com), which is often used as a placeholder or demonstration site in various contexts. It serves as a generic example for illustrating how a website might look or function.',
      ),
    ],
    skipped: 7,
    request: ["4f6535aaebcda355", ["Web-Search"], "gpt-4o", "gpt-4o-2024-08-06"],
  },
  {
    file: "langgraph-js-2025-10-30.trace.json",
    shape: "LangGraph (JS): OpenAI messages with tool_calls",
    generations: [
      said(
        "0856a1825ccee968",
        "It's always sunny in San Francisco! \n\nWould you like more details (current temperature, hourly forecast, or a multi-day outlook)?",
      ),
      called("8f0ee27d91863fde", call("get_weather", '{"city":"San Francisco"}')),
    ],
    skipped: 18,
    request: ["8f0ee27d91863fde", [], "gpt-5-mini", "gpt-5-mini-2025-08-07"],
  },
  {
    file: "google-adk-2025-08-28.trace.json",
    shape: "Google ADK: Gemini content parts with function_call (snake case), tools in config.tools",
    generations: ADK,
    skipped: 3,
    request: ["f6e4c65297e40c96", ["say_hello"], "gemini-2.0-flash", "gemini-2.0-flash"],
  },
  {
    file: "microsoft-agent-2025-12-17.trace.json",
    shape: "Microsoft Agent Framework: GenAI output messages of parts (text, tool_call)",
    generations: MICROSOFT,
    skipped: 2,
    request: ["2406e8343fd49c0e", ["get_weather"], "gpt-5-mini", "gpt-5-mini-2025-08-07"],
  },
  {
    file: "pydantic-ai-tools-2025-12-04.trace.json",
    shape:
      "pydantic-ai: output and metadata as objects (not strings), three calls in one generation, the output tool offered",
    generations: [
      said("00d2804abb764b1b", /^I gathered some great ideas/),
      called(
        "eb0cc14cf7943ad5",
        call("final_result", {
          quality: "good",
          feedback:
            "The joke is clever and plays on the double meaning of 'bugs' in programming and nature. It's relatable for those in the tech field, making it effective. To enhance it, consider adding a punchline that builds on the setup for an even stronger impact.",
        }),
      ),
      said("8976b072313c51f2", "Why do programmers hate nature?  \nIt has too many bugs!"),
      called(
        "be64c23f44dd98be",
        call("get_pun_suggestion", TOPIC),
        call("get_dad_joke_suggestion", TOPIC),
        call("get_one_liner_suggestion", TOPIC),
      ),
    ],
    skipped: 8,
    request: ["eb0cc14cf7943ad5", ["final_result"], "gpt-4o-mini", "gpt-4o-mini-2024-07-18"],
  },
  {
    // agno's OpenAIChat.invoke and, inside it, the Langfuse OpenAI integration's generation of the
    // same call: both are generations (only the Vercel AI SDK's outer call is told apart by name).
    // The inner one of the tool call recorded Python's None as its output.
    file: "agno-2025-06-11.trace.json",
    shape: "agno: OpenAI chat completion bodies; the Langfuse SDK's own generation inside each is read too",
    generations: [
      said("b38a82eaa62b551e", /^To find out what's currently trending/),
      said("fc7f61b57ecebbaf", /^To find out what's currently trending/),
      said("1f883bb9668167c0", "None"),
      called("ca136de468e156c9", call("duckduckgo_search", '{"query":"currently trending on Twitter"}')),
    ],
    skipped: 2,
    request: ["ca136de468e156c9", ["duckduckgo_search", "duckduckgo_news"], "gpt-4o-mini", "gpt-4o-mini"],
  },
];

describe("Langfuse trace downloads (real files), one framework's shape each", () => {
  it.each(DOWNLOADS)("$shape", (d) => {
    const r = readFile(d.file);
    expect(r.layout).toBe("observations");
    expect(r.generations).toEqual(d.generations);
    expect(r.skipped).toBe(d.skipped);
    const [id, tools, requested, answered] = d.request;
    const g = generationOf(obsOf(d.file, id));
    expect([g.offeredTools, g.requestModel, g.responseModel]).toEqual([tools, requested, answered]);
  });
});

describe("Langfuse observation exports", () => {
  it("reads observations one a line (JSONL), as they stand in the downloads", () => {
    const r = readFile("observations.jsonl");
    expect(r.layout).toBe("lines");
    expect(r.generations).toEqual([...DOWNLOADS[2].generations, ...DOWNLOADS[3].generations]);
    expect(r.skipped).toBe(9);
  });

  it("reads a JSON array of observations on one line, input, output and metadata parsed (the batch export's JSON)", () => {
    const r = readFile("observations-array.json");
    expect(r.layout).toBe("array");
    expect(r.generations).toEqual([...MICROSOFT, ...ADK]);
  });

  it("picks a download's observations, not the trace's own list of them (which has no input or output)", () => {
    const doc = JSON.parse(file("vercel-aisdk-2025-11-17.trace.json").toString("utf8"));
    expect(doc.trace.observations).toHaveLength(3);
    const s = new JsonScanner({ select: selectLangfuseObservation("observations"), maxBytes: 1 << 22 });
    const paths = [...s.push(file("vercel-aisdk-2025-11-17.trace.json")), ...s.end()].map((v) => v.path);
    expect(paths).toEqual(["observations[0]", "observations[1]", "observations[2]"]);
  });
});

describe("reading one observation", () => {
  const base = {
    id: "o1",
    traceId: "t1",
    type: "GENERATION",
    startTime: "2026-01-02T03:04:05.000Z",
    endTime: "2026-01-02T03:04:06.250Z",
    model: "gpt-4o-mini",
  };

  it("takes its identity, times and model from the observation", () => {
    const g = generationOf({ ...base, output: "Which time zone?" });
    expect(g).toMatchObject({
      traceId: "t1",
      spanId: "o1",
      startedAt: "2026-01-02T03:04:05.000Z",
      latencyMs: 1250,
      requestModel: "gpt-4o-mini",
      responseModel: null,
      text: "Which time zone?",
    });
    const parts = spanParts(g);
    expect(parts).toMatchObject({ id: "t1:o1", started_at: "2026-01-02T03:04:05.000Z", latency_ms: 1250 });
  });

  it("reads each output shape as an object, an array or a JSON string of either", () => {
    const call = { name: "schedule_window", arguments: '{"timezone":"UTC"}' };
    const shapes: unknown[] = [
      { role: "assistant", content: "", tool_calls: [{ type: "function", function: call }] },
      { type: "ai", content: "", tool_calls: [{ name: call.name, args: call.arguments, id: "c1" }] },
      { role: "assistant", content: "", additional_kwargs: { tool_calls: [{ function: call }] } },
      [{ toolCallId: "c1", toolName: call.name, input: call.arguments }],
      [{ role: "assistant", parts: [{ type: "tool_call", ...call }] }],
      [{ type: "function", function: call }],
      { content: { parts: [{ functionCall: { name: call.name, args: call.arguments } }], role: "model" } },
      { parts: [{ function_call: { name: call.name, args: call.arguments } }], role: "model" },
    ];
    for (const output of shapes) {
      for (const given of [output, JSON.stringify(output)]) {
        const g = generationOf({ ...base, output: given });
        expect({ given, calls: g.toolCalls }).toEqual({ given, calls: [call] });
      }
    }
  });

  it("hands provider bodies to the payload parser, and marks what it cannot read", () => {
    const body = { object: "chat.completion", choices: [{ message: { content: "Hi" } }] };
    expect(generationOf({ ...base, output: JSON.stringify(body) })).toMatchObject({ style: "payload" });
    // No output recorded: no call could be looked for.
    expect(spanParts(generationOf({ ...base, output: null }))).toMatchObject({
      response: { unrecognized: true },
    });
    // An object of no known shape: unrecognized, kept as it came.
    const odd = spanParts(generationOf({ ...base, output: '{"answer": 42}' }));
    expect(odd).toMatchObject({ response: { text: '{"answer": 42}', unrecognized: true } });
  });

  it("skips other observation types and rejects what is no observation, naming what it holds", () => {
    for (const type of ["SPAN", "EVENT", "AGENT", "TOOL"])
      expect(readLangfuseObservation({ ...base, type })).toEqual({ kind: "skip" });
    expect(readLangfuseObservation({ trace: {}, observations: [] })).toEqual({
      kind: "error",
      reason: "not a Langfuse observation: it needs id, traceId and type (it holds trace, observations)",
    });
    expect(readLangfuseObservation([1])).toMatchObject({ kind: "error" });
  });

  it("takes a world state and a probe from the metadata, as OTLP spans carry them", () => {
    const ws = { timezone: { status: "unknown" } };
    const g = generationOf({
      ...base,
      output: "x",
      metadata: JSON.stringify({
        attributes: { "assumeprobe.world_state": JSON.stringify(ws), "assumeprobe.probe": "p1" },
      }),
    });
    expect(g).toMatchObject({ worldState: ws, probe: "p1" });
    expect(generationOf({ ...base, output: "x", metadata: { "assumeprobe.probe": "p2" } }).probe).toBe("p2");
    expect(
      readLangfuseObservation({ ...base, output: "x", metadata: { "assumeprobe.world_state": "{oops" } }),
    ).toEqual({ kind: "error", reason: "metadata: assumeprobe.world_state is not JSON" });
  });
});

describe("the docs' example (docs/trace-format.md, Langfuse exports)", () => {
  it("reads as the docs say: one getWeather call, the tool offered, the request's model", () => {
    const md = readFileSync(join(import.meta.dirname, "..", "..", "docs", "trace-format.md"), "utf8");
    const section = md.slice(md.indexOf("### Langfuse exports"));
    const [, json] = section.split("```json");
    const doc = JSON.parse(json.slice(0, json.indexOf("```")));
    expect(detectFormat(readHead(Buffer.from(JSON.stringify(doc))))).toMatchObject({ format: "langfuse" });
    const g = generationOf(doc.observations[0]);
    expect(spanParts(g)).toMatchObject({
      id: "df41…:91a1…",
      model: "gpt-5",
      response: { tool_calls: [{ name: "getWeather", arguments: '{"location":"San Francisco"}' }] },
    });
    expect(g.offeredTools).toEqual(["getWeather"]);
  });
});

describe("telling a Langfuse export", () => {
  const head = (s: string) => readHead(Buffer.from(s));
  it("by type (a Langfuse observation type) beside traceId, in each layout", () => {
    const o = '{"id":"o","traceId":"t","type":"GENERATION"}';
    expect(detectFormat(head(`${o}\n`))).toMatchObject({ format: "langfuse", observations: "lines" });
    expect(detectFormat(head(`[${o}]`))).toMatchObject({ format: "langfuse", observations: "array" });
    expect(detectFormat(head(`{"observations":[${o}]}`))).toMatchObject({ observations: "observations" });
    expect(detectFormat(head(`{"trace":{"observations":[${o}]},"observations":[]}`))).toMatchObject({
      observations: "observations",
    });
    expect(detectFormat(head(`{"data":[${o}],"meta":{}}`))).toMatchObject({ observations: "data" });
  });

  it("never by a type key alone, nor a traceId alone", () => {
    expect(detectFormat(head('{"id":"o","traceId":"t","type":"function"}'))).toMatchObject({
      format: "trace",
    });
    expect(detectFormat(head('{"id":"o","type":"GENERATION"}'))).toMatchObject({ format: "trace" });
    // Our own records with a Langfuse export among them: our records, the export one rejected record.
    const mixed = `{"response":{"text":"hi"}}\n{"trace":{},"observations":[{"traceId":"t","type":"GENERATION"}]}\n`;
    expect(detectFormat(head(mixed))).toMatchObject({ format: "trace" });
  });

  it("refuses --format langfuse on content that is another format's, or none", () => {
    const otlp = head('{"resourceSpans":[{"scopeSpans":[]}]}');
    expect(chooseFormat("langfuse", otlp)).toEqual({
      error: expect.stringMatching(/^--format langfuse, but the file is otlp .*pass --format otlp or auto/),
    });
    expect(chooseFormat("langfuse", head('{"response":{"text":"hi"}}'))).toEqual({
      error: expect.stringMatching(
        /^--format langfuse, but the file has none of that format's fields \(observations/,
      ),
    });
    expect(chooseFormat("otlp", readHead(file("google-adk-2025-08-28.trace.json")))).toEqual({
      error: expect.stringContaining("the file is langfuse"),
    });
  });
});
