import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { ingestSources } from "../../lib/ingest/pipeline";
import { rescoreStored, type StoredTrace } from "../../lib/ingest/rescore";
import { builtinProbes } from "../../lib/probe/builtin";
import {
  buildEvalLog,
  buildZip,
  evalHeader,
  inspectSample,
  withCorruptEntry,
  withMethod,
} from "../../lib/testing/inspectLogs";
import { ingestPaths, ingestText, tempDb } from "../testing/ingest";
import { expectConsistent } from "../testing/rescore";
import { createIngestStore } from "./ingestStore";
import { ORIGINAL_OF } from "./originals";

/** Inspect logs through the real store (a SQLite file): `.eval` zips built here, and the zip's failures. */

const SW = {
  name: "schedule_window",
  required: ["user_id", "starts_at"],
  optional: ["timezone", "severity"],
};
const ARGS = { user_id: "u_9182", starts_at: "2026-09-08T09:00:00" };
const book = (timezone?: string) => ({
  function: "schedule_window",
  arguments: timezone ? { ...ARGS, timezone } : ARGS,
});

interface Row {
  ext_id: string;
  form: string;
  model: string;
  response: string;
  result: string;
  agent_step: number;
  original: string;
  probe_id: string;
  line: number;
}
const spools = () => readdirSync(tmpdir()).filter((n) => n.startsWith("assumeprobe-spool-")).length;

describe("ingest of Inspect .eval logs", () => {
  const t = tempDb("inspect");
  afterAll(() => t.cleanup());
  const rows = (source: string) =>
    t.db.sqlite
      .prepare(
        `SELECT ext_id, form, model, response, result, agent_step, ${ORIGINAL_OF} AS original, probe_id, line FROM traces WHERE source = ? ORDER BY id`,
      )
      .all(source) as Row[];
  const labels = (r: Row) => JSON.parse(r.result).fields.timezone.label as string;

  it("reads each model generation of each sample and epoch; a sample is one agent turn", async () => {
    const zip = await buildEvalLog([
      inspectSample({
        id: "s1",
        epoch: 1,
        tools: [SW],
        generations: [{ content: "Booking.", calls: [book("UTC")] }, { content: "Done." }],
      }),
      inspectSample({
        id: "s1",
        epoch: 2,
        tools: [SW],
        metadata: { world_state: { timezone: { status: "unknown" } } },
        generations: [{ content: "Which time zone?" }, { content: "", calls: [book("Asia/Tokyo")] }],
      }),
    ]);
    const before = spools();
    const s = await ingestText(t.db, "agent.eval", zip, { format: "auto" });
    expect(spools()).toBe(before);
    expect(s.errors).toEqual([]);
    expect(s).toMatchObject({ records: 4, ingested: 4, rejected: 0 });
    expect(s.formats).toEqual([
      { file: "agent.eval", format: "inspect", evidence: "a zip archive (an Inspect .eval log)" },
    ]);
    const got = rows("agent");
    expect(got.map((r) => [r.ext_id, r.form, r.model, r.probe_id, r.agent_step])).toEqual([
      ["s1:1:0", "inspect", "openai/gpt-4o-mini", "schedule_window", 0],
      ["s1:1:1", "inspect", "openai/gpt-4o-mini", "schedule_window", 1],
      ["s1:2:0", "inspect", "openai/gpt-4o-mini", "schedule_window", 1],
      ["s1:2:1", "inspect", "openai/gpt-4o-mini", "schedule_window", 0],
    ]);
    expect(JSON.parse(got[0].response)).toEqual({
      text: "Booking.",
      tool_calls: [{ name: "schedule_window", arguments: { ...ARGS, timezone: "UTC" } }],
      fenced: false,
    });
    expect(JSON.parse(got[1].response).text).toBe("Done.");
    expect(got.map(labels)).toEqual(["INJECT", "DRIFT", "ASK", "INJECT"]);
    // gpt-4o-mini answered for openai/gpt-4o-mini: the same model, no model_mismatch.
    for (const r of got) expect(JSON.parse(r.result).flags).not.toContain("model_mismatch");
    // Each generation keeps its own model event, not the whole sample.
    const original = JSON.parse(got[1].original);
    expect(original.inspect_generation).toEqual({ index: 1, model: "openai/gpt-4o-mini" });
    expect(original.sample.events).toHaveLength(1);
    expect(original.sample.events[0].output.choices[0].message.content).toBe("Done.");
    expectConsistent(t.db);
  });

  it("re-reads each stored generation from its original: a re-score changes nothing", () => {
    const probe = builtinProbes().get("schedule_window");
    if (!probe) throw new Error("no built-in schedule_window");
    const stored = t.db.sqlite
      .prepare(
        `SELECT id, probe_id AS probeId, form, ext_id AS extId, model, ${ORIGINAL_OF} AS original, result, response FROM traces WHERE source = 'agent'`,
      )
      .all() as StoredTrace[];
    expect(stored).toHaveLength(4);
    for (const s of stored) expect(rescoreStored(s, probe)).toMatchObject({ ok: true, changed: false });
  });

  it("reads its generation records again, one a line (what a re-ingest sends): the same traces, so duplicates", async () => {
    const originals = rows("agent").map((r) => r.original);
    const s = await ingestText(t.db, "agent.jsonl", `${originals.join("\n")}\n`, { format: "auto" });
    expect(s.formats?.[0]).toMatchObject({
      format: "inspect",
      evidence: "Inspect generation records: inspect_generation beside its sample",
    });
    expect(s).toMatchObject({ records: 4, ingested: 0, duplicates: 4, rejected: 0 });
  });

  it("takes the probe a sample names in its metadata, and says where an unknown one was named", async () => {
    const named = (probe: string) =>
      inspectSample({
        id: probe,
        tools: [SW],
        metadata: { assumeprobe_probe: probe },
        generations: [{ content: "", calls: [book("UTC")] }],
      });
    const zip = await buildEvalLog([named("book_slot"), named("nope")]);
    const s = await ingestText(t.db, "named.eval", zip, { format: "auto" });
    expect(s.errors.map((e) => e.reason)).toEqual([
      'samples/nope_epoch_1.json:events[1]: unknown probe "nope" (the sample\'s metadata assumeprobe_probe)',
    ]);
    expect(rows("named").map((r) => [r.ext_id, r.probe_id])).toEqual([["book_slot:1:0", "book_slot"]]);
  });

  it("a parse_error on a call is ERROR", async () => {
    const zip = await buildEvalLog([
      inspectSample({
        id: 9,
        tools: [SW],
        generations: [
          {
            content: "",
            calls: [{ ...book("UTC"), parse_error: "Expecting ',' delimiter: line 1 column 40" }],
          },
        ],
      }),
    ]);
    await ingestText(t.db, "parse.eval", zip, { format: "auto" });
    const [r] = rows("parse");
    expect(r.ext_id).toBe("9:1:0");
    expect(labels(r)).toBe("ERROR");
  });

  it("rejects each sample entry that cannot be read, naming it, and reads the others", async () => {
    const good = inspectSample({
      id: "ok",
      tools: [SW],
      generations: [{ content: "", calls: [book("UTC")] }],
    });
    const big = inspectSample({
      id: "big",
      tools: [SW],
      user: "x".repeat(20_000),
      generations: [{ content: "", calls: [book("UTC")] }],
    });
    let zip = await buildEvalLog(
      [good, { ...good, id: "bad" }, { ...good, id: "zstd" }, big],
      [{ name: "samples/text_epoch_1.json", data: "not json {" }],
    );
    zip = withCorruptEntry(zip, "samples/bad_epoch_1.json");
    zip = withMethod(zip, "samples/zstd_epoch_1.json", 93);
    const s = await ingestText(t.db, "mixed.eval", zip, { format: "auto", maxRecordBytes: 16_000 });
    expect(s).toMatchObject({ records: 5, ingested: 1, rejected: 4 });
    expect(s.unreadable).toBeUndefined();
    expect(s.errors.map((e) => e.path)).toEqual([
      "samples/bad_epoch_1.json",
      "samples/zstd_epoch_1.json",
      "samples/big_epoch_1.json",
      "samples/text_epoch_1.json",
    ]);
    const [bad, zstd, over, text] = s.errors.map((e) => e.reason);
    expect(bad).toMatch(/^samples\/bad_epoch_1\.json: the entry cannot be inflated: invalid/);
    expect(zstd).toBe(
      "samples/zstd_epoch_1.json: the entry is compressed with zstd (method 93), which Node 20 cannot inflate: write the log with deflate (Inspect's default) or unzip and zip it again",
    );
    expect(over).toMatch(/^samples\/big_epoch_1\.json: the entry is \d+ bytes, over the limit of 16000/);
    expect(text).toMatch(/^samples\/text_epoch_1\.json: not JSON: /);
    expect(rows("mixed").map((r) => r.ext_id)).toEqual(["ok:1:0"]);
  });

  it("rejects a zip whose central directory is cut off as a whole, and removes its spool", async () => {
    const zip = await buildEvalLog([inspectSample({ id: 1, generations: [{ content: "hi" }] })]);
    const before = spools();
    const s = await ingestText(t.db, "cut.eval", zip.subarray(0, zip.length - 30), { format: "auto" });
    expect(s).toMatchObject({ records: 0, ingested: 0, rejected: 0 });
    expect(s.unreadable).toEqual([
      {
        file: "cut.eval",
        lines: 0,
        unread: true,
        reason: expect.stringMatching(
          /^the zip's central directory is missing or broken \(.+\): the file is cut off or not a whole zip, and an Inspect \.eval log cannot be read without it; nothing of it was read$/,
        ),
      },
    ]);
    expect(spools()).toBe(before);
  });

  it("says why a spooled stream stopped, and removes the spool then too", async () => {
    const zip = await buildEvalLog([inspectSample({ id: 1, generations: [{ content: "hi" }] })]);
    const before = spools();
    const stream = new Readable({
      read() {
        this.push(zip.subarray(0, 100));
        this.destroy(new Error("the upload stopped at its limit"));
      },
    });
    const s = await ingestSources(
      [{ file: "upload.eval", name: "upload", stream }],
      { probe: "schedule_window", format: "auto", origin: "test" },
      createIngestStore(t.db),
    );
    expect(s.unreadable?.[0].reason).toMatch(
      /^the upload stopped at its limit; the zip's central directory is missing/,
    );
    expect(spools()).toBe(before);
  });

  it("reads a file in place (no spool), and an unfinished log's model from its journal", async () => {
    const zip = await buildZip([
      { name: "_journal/start.json", data: JSON.stringify(evalHeader("anthropic/claude-x")) },
      {
        name: "samples/1_epoch_1.json",
        data: JSON.stringify({ id: 1, epoch: 1, messages: [{ role: "assistant", content: "hello" }] }),
      },
    ]);
    const path = join(t.dir, "unfinished.eval");
    writeFileSync(path, zip);
    const before = spools();
    const s = await ingestPaths(t.db, [path], { format: "auto", probe: "schedule_window", probeGiven: true });
    expect(spools()).toBe(before);
    expect(s).toMatchObject({ ingested: 1 });
    expect(rows("unfinished").map((r) => [r.ext_id, r.model, JSON.parse(r.response).text])).toEqual([
      ["1:1:0", "anthropic/claude-x", "hello"],
    ]);
  });
});

describe("ingest of Inspect .json logs", () => {
  const t = tempDb("inspectjson");
  afterAll(() => t.cleanup());
  const FORMATS = join(import.meta.dirname, "..", "..", "fixtures", "inspect", "log_formats.json");

  it("takes the model from eval; a log whose samples come first rejects what names no model, unless --model gives one", async () => {
    const log = JSON.parse(readFileSync(FORMATS, "utf8"));
    const opts = { format: "auto", probe: "schedule_window", probeGiven: true } as const;
    let s = await ingestText(t.db, "first.json", JSON.stringify(log), opts);
    expect(s).toMatchObject({ records: 1, ingested: 1 });
    const { eval: spec, samples, ...rest } = log;
    const samplesFirst = JSON.stringify({ samples, ...rest, eval: spec });
    s = await ingestText(t.db, "late.json", samplesFirst, opts);
    expect(s).toMatchObject({ records: 1, ingested: 0, rejected: 1 });
    expect(s.errors[0]).toMatchObject({
      path: "samples[0].messages[2]",
      reason:
        "samples[0].messages[2]: the log's eval, which names its model, comes after this sample and its model event names none: pass --model",
    });
    s = await ingestText(t.db, "late.json", samplesFirst, { ...opts, model: "ollama/llama3.1" });
    expect(s).toMatchObject({ records: 1, ingested: 1 });
    const models = t.db.sqlite.prepare("SELECT source, model, ext_id FROM traces ORDER BY id").all();
    expect(models).toEqual([
      { source: "first", model: "ollama/llama3.1", ext_id: "1:1:0" },
      { source: "late", model: "ollama/llama3.1", ext_id: "1:1:0" },
    ]);
  });
});
