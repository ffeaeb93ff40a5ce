import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ORIGINAL_OF } from "../../db/queries/originals";
import { rescoreStored, type StoredTrace } from "../ingest/rescore";
import { type Probe, ProbeSchema } from "../probe/schema";
import { cliSandbox } from "./testCli";

const box = cliSandbox("langfuse");
afterAll(box.cleanup);
const SLOW = { timeout: 120_000 };
/** Real Langfuse exports (fixtures/langfuse/SOURCES.md); expected calls written by hand from them. */
const DIR = join(import.meta.dirname, "..", "..", "fixtures", "langfuse");
const VERCEL = join(DIR, "vercel-aisdk-2025-11-17.trace.json");

/** A probe offering the Vercel example's tool: its location is the probed field. */
const WEATHER: Probe = ProbeSchema.parse({
  id: "lf_weather",
  system: "You report the weather.",
  user: "What is the weather like today?",
  hidden: { location: "San Francisco" },
  redacted: {},
  tool: {
    name: "getWeather",
    description: "Get the weather in a location",
    parameters: { type: "object", properties: { location: { type: "string" } } },
    mutating: false,
  },
  fields: ["location"],
});

const rows = (source: string) => box.traces(source);
const last = (lines: string[]) => JSON.parse(lines[lines.length - 1]);

describe("ingest of Langfuse exports, no flags", SLOW, () => {
  it("reads a trace's Download JSON: the doGenerate call stored, its probe found by the tool offered", async () => {
    // Before the probe exists, the generation is rejected naming its tool and how to choose.
    const before = await box.run(["ingest", VERCEL, "--json"]);
    expect(before.code).toBe(1);
    expect(last(before.lines).errors).toEqual([
      {
        file: VERCEL,
        line: 305,
        path: "observations[1]",
        reason:
          "observations[1]: no probe offers the tools this generation was offered or called (getWeather); choose one with --probe ID (or the metadata key assumeprobe.probe), or make a probe from this trace's text",
      },
    ]);
    const added = await box.run(["probes", "add", box.file("weather.json", JSON.stringify(WEATHER))]);
    expect(added.code).toBe(0);

    const r = await box.run(["ingest", VERCEL, "--json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const s = last(r.lines);
    expect(s).toMatchObject({ records: 1, ingested: 1, rejected: 0, spans_skipped: 2 });
    expect(s.formats).toEqual([
      { file: VERCEL, format: "langfuse", evidence: expect.stringContaining("beside traceId") },
    ]);
    const [t] = rows("vercel-aisdk-2025-11-17.trace");
    expect(JSON.parse(t.response)).toEqual({
      text: null,
      tool_calls: [{ name: "getWeather", arguments: '{"location":"San Francisco"}' }],
      fenced: false,
    });
    expect(t).toMatchObject({
      form: "langfuse",
      ext_id: "df41e597d0a85e0d7a6ae8ebfaa70aa0:91a17a2274bfd23f",
      model: "gpt-5",
      payload_model: "gpt-5-2025-08-07",
      started_at: "2025-11-17T14:55:18.787Z",
      latency_ms: 3043,
      run: "vercel-aisdk-2025-11-17.trace",
      line: 305,
    });
    // The original is the observation's own bytes in the file.
    expect(readFileSync(VERCEL, "utf8").includes(t.original)).toBe(true);
    expect(JSON.parse(t.original).id).toBe("91a17a2274bfd23f");
  });

  it("re-reads each stored generation from its original: a re-score changes nothing", async () => {
    await box.run(["ingest", join(DIR, "observations.jsonl"), "--probe", "lf_weather", "--json"]);
    const stored = box.query<StoredTrace>(
      `SELECT id, probe_id AS probeId, form, ext_id AS extId, model, ${ORIGINAL_OF} AS original, result, response
         FROM traces WHERE form = 'langfuse'`,
    );
    expect(stored).toHaveLength(4);
    for (const t of stored) expect(rescoreStored(t, WEATHER)).toMatchObject({ ok: true, changed: false });
    // The original read again is the observation: one that is no longer a generation says so.
    const original = Buffer.from(stored[0].original).toString("utf8");
    const other = { ...stored[0], original: original.replace('"GENERATION"', '"SPAN"') };
    expect(rescoreStored(other, WEATHER)).toEqual({
      ok: false,
      reason: "the original record no longer reads: the span is no longer read as a model generation",
    });
  });

  it("reads observations one a line and in a JSON array, with --probe for those that offered no tool", async () => {
    const r = await box.run([
      "ingest",
      join(DIR, "observations-array.json"),
      "--probe",
      "lf_weather",
      "--json",
    ]);
    expect(r.code).toBe(0);
    expect(last(r.lines)).toMatchObject({ records: 4, ingested: 4, spans_skipped: 5 });
    const got = rows("observations-array").map((t) => [t.run, JSON.parse(t.response).tool_calls]);
    expect(got).toEqual([
      ["observations-array", [{ name: "get_weather", arguments: '{"location":"Tokyo, Japan"}' }]],
      ["observations-array", []],
      ["observations-array/gemini-2.0-flash", []],
      ["observations-array/gemini-2.0-flash", [{ name: "say_hello", arguments: {} }]],
    ]);
  });

  it("refuses --format langfuse on content that is another format's, or none, storing nothing", async () => {
    const before = box.query<{ n: number }>("SELECT count(*) AS n FROM traces")[0].n;
    const otlp = join(import.meta.dirname, "..", "..", "fixtures", "testdata", "otel", "genai.otlp.json");
    const asLangfuse = await box.run(["ingest", otlp, "--format", "langfuse", "--json"]);
    expect(asLangfuse.code).toBe(2);
    expect(asLangfuse.stderr).toContain("--format langfuse, but the file is otlp");
    const ours = box.file("ours.jsonl", '{"response":{"text":"hi"}}\n');
    const none = await box.run(["ingest", ours, "--format", "langfuse"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(
      "--format langfuse, but the file has none of that format's fields (observations with type GENERATION",
    );
    // And the other way: a Langfuse export is not OTLP.
    const asOtlp = await box.run(["ingest", VERCEL, "--format", "otlp"]);
    expect(asOtlp.code).toBe(2);
    expect(asOtlp.stderr).toContain("--format otlp, but the file is langfuse");
    expect(box.query<{ n: number }>("SELECT count(*) AS n FROM traces")[0].n).toBe(before);
  });
});
