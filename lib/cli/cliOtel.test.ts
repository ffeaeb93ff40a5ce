import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { cliSandbox } from "./testCli";

const box = cliSandbox("otel");
afterAll(box.cleanup);
const SLOW = { timeout: 120_000 };
const DATA = join(import.meta.dirname, "..", "..", "fixtures", "testdata", "otel");

const rows = (source: string) => box.traces(source);
const call = (name: string, args: unknown) => ({
  text: null,
  tool_calls: [{ name, arguments: args }],
  fenced: false,
});
const said = (text: string) => ({ text, tool_calls: [], fenced: false });
const last = (lines: string[]) => JSON.parse(lines[lines.length - 1]);

describe("ingest --format auto on other tools' traces", SLOW, () => {
  it("reads the GenAI OTLP document: two generations stored, the agent and tool spans skipped", async () => {
    const file = join(DATA, "genai.otlp.json");
    const r = await box.run(["ingest", file, "--json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const s = last(r.lines);
    expect(s).toMatchObject({ records: 2, ingested: 2, rejected: 0, spans_skipped: 2 });
    expect(s.formats).toEqual([{ file, format: "otlp", evidence: expect.stringContaining("resourceSpans") }]);
    const got = rows("genai.otlp");
    expect(got.map((t) => JSON.parse(t.response))).toEqual([
      call("schedule_window", { user_id: "u_9182", starts_at: "2026-09-08T09:00:00", timezone: "UTC" }),
      said("Done: the window is booked for 09:00 UTC."),
    ]);
    // The request's model is pinned; the response's is the payload's.
    expect(got.map((t) => [t.form, t.model, t.payload_model, t.run])).toEqual([
      ["otlp", "gpt-4o", "gpt-4o-2024-08-06", "genai.otlp"],
      ["otlp", "gpt-4o", "gpt-4o-2024-08-06", "genai.otlp"],
    ]);
    // Each original is the span's own bytes in the file, not a re-serialisation.
    const bytes = readFileSync(file, "utf8");
    for (const t of got) {
      expect(bytes.includes(t.original)).toBe(true);
      expect(t.ext_id).toBe(`${JSON.parse(t.original).traceId}:${JSON.parse(t.original).spanId}`);
    }
    // Read again: every span is a duplicate.
    const again = last((await box.run(["ingest", file, "--json"])).lines);
    expect(again).toMatchObject({ records: 2, ingested: 0, duplicates: 2 });
  });

  it("reads the file exporter's JSON Lines: OpenLLMetry and OpenInference styles, one run per model", async () => {
    const file = join(DATA, "file-exporter.otlp.jsonl");
    const r = await box.run(["ingest", file, "--json"]);
    expect(r.code).toBe(0);
    expect(last(r.lines)).toMatchObject({ records: 4, ingested: 4, spans_skipped: 1 });
    const got = rows("file-exporter.otlp");
    expect(got.map((t) => [t.line, t.run, t.model, JSON.parse(t.response)])).toEqual([
      [
        1,
        "file-exporter.otlp",
        "gpt-4o-mini",
        call("schedule_window", '{"user_id": "u_9182", "starts_at": "2026-09-08T09:00:00"}'),
      ],
      [
        1,
        "file-exporter.otlp",
        "gpt-4o-mini",
        call(
          "schedule_window",
          '{"user_id": "u_9182", "starts_at": "2026-09-08T09:00:00", "timezone": "Asia/Tokyo"}',
        ),
      ],
      [1, "file-exporter.otlp", "gpt-4o-mini", said("Which timezone should the window be in?")],
      [
        2,
        "file-exporter.otlp/gpt-4o",
        "gpt-4o",
        call(
          "schedule_window",
          '{"user_id": "u_9182", "starts_at": "2026-09-08T09:00:00", "timezone": "GMT"}',
        ),
      ],
    ]);
    const text = readFileSync(file, "utf8");
    for (const t of got) expect(text.includes(t.original)).toBe(true);
  });

  it("reads Phoenix spans (the OpenInference spec's examples): probes chosen by --probe, else rejected naming the tools", async () => {
    const file = join(DATA, "phoenix-spans.json");
    const none = await box.run(["ingest", file, "--json", "--run", "phoenix-none"]);
    expect(none.code).toBe(1);
    const s = last(none.lines);
    expect(s.formats[0].format).toBe("phoenix");
    expect(s.errors.map((e: { line: number; path: string; reason: string }) => [e.line, e.path])).toEqual([
      [2, "[0]"],
      [43, "[1]"],
    ]);
    expect(s.errors[0].reason).toContain(
      "no probe offers the tools this generation was offered or called (multiply)",
    );
    expect(s.errors[0].reason).toContain("--probe");
    const given = await box.run(["ingest", file, "--json", "--probe", "schedule_window"]);
    expect(given.code).toBe(0);
    expect(rows("phoenix-spans").map((t) => [t.ext_id, t.model, JSON.parse(t.response)])).toEqual([
      [
        "409df945-e058-4829-b240-cfbdd2ff4488:01fa9612-01b8-4358-85d6-e3e067305ec3",
        "gpt-3.5-turbo-0613",
        call("multiply", '{\n  "a": 23,\n  "b": 87\n}'),
      ],
      [
        "409df945-e058-4829-b240-cfbdd2ff4488:f26d1f26-9671-435d-9716-14a87a3f228b",
        "gpt-3.5-turbo-0613",
        said("The product of 23 times 87 is 2001."),
      ],
    ]);
  });

  it("reads Phoenix spans with nested attributes, one a line", async () => {
    const r = await box.run(["ingest", join(DATA, "phoenix-nested.jsonl"), "--json"]);
    expect(r.code).toBe(0);
    expect(last(r.lines)).toMatchObject({ records: 1, ingested: 1, spans_skipped: 1 });
    expect(rows("phoenix-nested").map((t) => JSON.parse(t.response))).toEqual([
      call("schedule_window", '{"user_id": "u_9182", "starts_at": "2026-09-08T09:00:00"}'),
    ]);
  });

  it("tells the format of a gzip file on standard input the same way", async () => {
    const gz = gzipSync(readFileSync(join(DATA, "genai.otlp.json")));
    const r = await box.run(["ingest", "-", "--json", "--run", "otlp-stdin"], gz);
    expect(r.code).toBe(0);
    expect(last(r.lines)).toMatchObject({
      records: 2,
      ingested: 2,
      formats: [{ file: "stdin", format: "otlp" }],
      runs: [{ name: "otlp-stdin", ingested: 2 }],
    });
  });

  it("rejects a malformed span and a broken line with their line and path, and stores the rest", async () => {
    const good = readFileSync(join(DATA, "file-exporter.otlp.jsonl"), "utf8").split("\n")[0];
    const badSpan = good.replace('"traceId":', '"traceIdX":');
    const broken = good.slice(0, 300);
    const file = box.file(
      "mixed.otlp.jsonl",
      `${badSpan}\n${broken}\n${good.replaceAll("8227e293c010df61", "aaaaaaaaaaaaaaaa")}\n`,
    );
    const r = await box.run(["ingest", file, "--json"]);
    expect(r.code).toBe(1);
    const s = last(r.lines);
    // Line 1: its first span has no traceId (the others are read); line 2 is cut; line 3 is whole.
    expect(s.errors.map((e: { line: number; path: string }) => [e.line, e.path])).toEqual([
      [1, "resourceSpans[0].scopeSpans[0].spans[0]"],
      [2, expect.stringMatching(/^resourceSpans/)],
    ]);
    expect(s.errors[0].reason).toContain("no traceId");
    // Line 3 holds one new span and two already stored from line 1.
    expect(s).toMatchObject({ records: 7, ingested: 3, duplicates: 2, rejected: 2 });
  });

  it("keeps what came before where a document is cut off, and says where it stopped", async () => {
    const doc = readFileSync(join(DATA, "openinference.otlp.json"), "utf8");
    const file = box.file("cut.otlp.json", doc.slice(0, doc.lastIndexOf('"spanId"')));
    const s = last((await box.run(["ingest", file, "--json"])).lines);
    expect(s.errors).toHaveLength(1);
    expect(s.errors[0].reason).toMatch(
      /ends inside resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[1\].*cut off/,
    );
    expect(s.ingested).toBe(1);
  });

  it("refuses a --format the content contradicts, and a file that matches no format, storing nothing", async () => {
    const before = box.query<{ n: number }>("SELECT count(*) AS n FROM traces")[0].n;
    const r = await box.run(["ingest", join(DATA, "genai.otlp.json"), "--format", "trace", "--json"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--format trace, but the file is otlp");
    // The first bytes of a zip (an Inspect .eval) and nothing after: no central directory, nothing read.
    const zip = box.file("log.eval", Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]));
    const n = await box.run(["ingest", zip]);
    expect(n.code).toBe(2);
    expect(n.stderr).toContain("the zip's central directory is missing or broken");
    const asOtlp = await box.run([
      "ingest",
      box.file("ours.jsonl", '{"response":{"text":"hi"}}\n'),
      "--format",
      "otlp",
    ]);
    expect(asOtlp.code).toBe(2);
    expect(asOtlp.stderr).toContain("--format otlp, but the file has none of that format's fields");
    expect(box.query<{ n: number }>("SELECT count(*) AS n FROM traces")[0].n).toBe(before);
  });
});
