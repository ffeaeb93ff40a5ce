import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { ingestPaths, ingestText, tempDb, traceLine } from "../testing/ingest";
import { summaryChecker } from "../testing/ingestSummary";

const { db, dir, cleanup } = tempDb("identity");
afterAll(cleanup);
const q = db.sqlite;

/** Every summary adds up, and the database stays consistent after every ingest. */
const checked = summaryChecker(q);

const count = (run: string) =>
  q.prepare("SELECT count(*) FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = ?").pluck().get(run);
const runRow = (name: string) =>
  q.prepare("SELECT model, trace_count, rejected_count FROM runs WHERE name = ?").get(name) as
    | { model: string | null; trace_count: number; rejected_count: number }
    | undefined;
const errorsOf = (run: string) =>
  q
    .prepare(
      "SELECT e.line, e.reason, e.raw FROM ingest_errors e JOIN runs r ON r.id = e.run_id WHERE r.name = ? ORDER BY e.line",
    )
    .all(run) as { line: number; reason: string; raw: string }[];
const lines = (...ls: string[]) => `${ls.join("\n")}\n`;

describe("identity", () => {
  const a = traceLine({}, { timezone: "UTC" });
  const b = traceLine({}, { timezone: "Asia/Tokyo" });
  const c = traceLine({ label: "ASK" });

  it("adds nothing when the same file is ingested again", async () => {
    const first = checked(await ingestText(db, "same.jsonl", lines(a, b, c)));
    expect(first).toMatchObject({ records: 3, ingested: 3, duplicates: 0 });
    const again = checked(await ingestText(db, "same.jsonl", lines(a, b, c)));
    expect(again).toMatchObject({ records: 3, ingested: 0, duplicates: 3, rejected: 0 });
    // The run is still named, with no new traces, so a re-ingest can point at it.
    expect(again.runs).toEqual([{ name: "same", ingested: 0 }]);
    expect(count("same")).toBe(3);
  });

  it("adds only the appended records of a file that grew", async () => {
    checked(await ingestText(db, "grow.jsonl", lines(a, b)));
    const s = checked(await ingestText(db, "grow.jsonl", lines(a, b, c, a)));
    expect(s).toMatchObject({
      records: 4,
      ingested: 2,
      duplicates: 2,
      runs: [{ name: "grow", ingested: 2 }],
    });
    expect(q.prepare("SELECT line FROM traces WHERE source = 'grow' ORDER BY id").pluck().all()).toEqual([
      1, 2, 3, 4,
    ]);
  });

  it("ignores line endings and a byte-order mark in identity: a CRLF copy adds nothing", async () => {
    checked(await ingestText(db, "endings.jsonl", lines(a, b)));
    const crlf = `\uFEFF${lines(a, b).replaceAll("\n", "\r\n")}`;
    const s = checked(await ingestText(db, "endings.jsonl", crlf));
    expect(s).toMatchObject({ ingested: 0, duplicates: 2 });
  });

  it("keeps identical samples on different lines", async () => {
    const s = checked(await ingestText(db, "twins.jsonl", lines(a, a, a)));
    expect(s).toMatchObject({ ingested: 3, duplicates: 0 });
  });

  it("treats the same id with the same content as a duplicate, and with other content as rejected", async () => {
    const withId = (tz: string) => traceLine({ id: "s-1", run: "ids" }, { timezone: tz });
    checked(await ingestText(db, "ids1.jsonl", lines(withId("UTC"))));
    const s = checked(
      await ingestText(db, "ids2.jsonl", lines(traceLine({ run: "ids" }), withId("UTC"), withId("gmt"))),
    );
    expect(s).toMatchObject({ records: 3, ingested: 1, duplicates: 1, rejected: 1 });
    expect(s.errors).toEqual([
      { file: "ids2.jsonl", line: 3, reason: 'id "s-1" is already used in run "ids" for other content' },
    ]);
    // Stored like any rejected record, against the run the file's good records went to.
    expect(errorsOf("ids")).toEqual([{ line: 3, reason: s.errors[0].reason, raw: withId("gmt") }]);
    expect(runRow("ids")?.rejected_count).toBe(1);
    expect(runRow("ids2")).toBeUndefined();
    expect(count("ids")).toBe(2);
    const again = checked(
      await ingestText(db, "ids2.jsonl", lines(traceLine({ run: "ids" }), withId("UTC"), withId("gmt"))),
    );
    expect(again).toMatchObject({ ingested: 0, duplicates: 2, rejected: 1 });
    expect(runRow("ids")?.rejected_count).toBe(1);
  });
});

describe("runs", () => {
  it("sends records naming a run to it, others to --run, else to the source name", async () => {
    const text = lines(
      traceLine({ run: "named" }),
      traceLine(),
      traceLine({ run: "named" }, { timezone: "x" }),
    );
    const s = checked(await ingestText(db, "data/nightly.v2.jsonl", text));
    expect(s.runs).toEqual([
      { name: "named", ingested: 2 },
      { name: "nightly.v2", ingested: 1 },
    ]);
    const t = checked(await ingestText(db, "data/nightly.v2.jsonl", text, { run: "chosen" }));
    expect(t).toMatchObject({
      ingested: 1,
      duplicates: 2,
      runs: [
        { name: "named", ingested: 0 },
        { name: "chosen", ingested: 1 },
      ],
    });
  });

  it("names a gzip file's run without .gz and one extension, and standard input `stdin`", async () => {
    const text = lines(traceLine(), traceLine({}, { timezone: "UTC" }));
    const path = join(dir, "night.jsonl.gz");
    writeFileSync(path, gzipSync(text));
    expect(checked(await ingestPaths(db, [path])).runs).toEqual([{ name: "night", ingested: 2 }]);
    const fromStdin = await ingestPaths(db, ["-"], {}, Readable.from([gzipSync(text)]));
    expect(checked(fromStdin).runs).toEqual([{ name: "stdin", ingested: 2 }]);
    expect(
      q
        .prepare("SELECT DISTINCT source FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = 'stdin'")
        .pluck()
        .all(),
    ).toEqual(["stdin"]);
  });

  it("counts rejected records against the run the file's good records went to, once, creating no run", async () => {
    const text = lines(
      "oops first",
      traceLine({ run: "elsewhere" }),
      "oops",
      traceLine({ run: "elsewhere", probe: "nope" }),
    );
    for (let i = 0; i < 2; i++) {
      const s = checked(await ingestText(db, "alpha.jsonl", text));
      expect(s).toMatchObject({ rejected: 3 });
    }
    // The rejected line before the first good record counts against its run too.
    expect(runRow("alpha")).toBeUndefined();
    expect(runRow("elsewhere")).toMatchObject({ trace_count: 1, rejected_count: 3 });
    expect(errorsOf("elsewhere").map((e) => e.line)).toEqual([1, 3, 4]);
    checked(await ingestText(db, "alpha.jsonl", text, { run: "beta" }));
    expect(runRow("beta")).toBeUndefined();
    expect(runRow("elsewhere")?.rejected_count).toBe(3);
  });

  it("counts them against the first run, when a file's good records went to several", async () => {
    const text = lines(traceLine({ run: "first-x" }), "bad", traceLine({ run: "then-y" }), "bad too");
    const s = checked(await ingestText(db, "several.jsonl", text, { batchSize: 1 }));
    expect(s.runs.map((r) => r.name)).toEqual(["first-x", "then-y"]);
    expect(runRow("first-x")?.rejected_count).toBe(2);
    expect(runRow("then-y")?.rejected_count).toBe(0);
    expect(runRow("several")).toBeUndefined();
  });

  it("a file with only rejected records: its default run when that exists, else no run at all", async () => {
    const text = lines("not json", "[1]");
    const alone = checked(await ingestText(db, "lonely.jsonl", text));
    expect(alone).toMatchObject({ records: 2, rejected: 2, runs: [] });
    expect(runRow("lonely")).toBeUndefined();
    const runless = () =>
      q
        .prepare(
          "SELECT line, batch_id AS batch FROM ingest_errors WHERE run_id IS NULL AND source = 'lonely'",
        )
        .all();
    const last = () => q.prepare("SELECT max(id) FROM ingest_batches").pluck().get();
    // Listed with their ingest, once each, whatever number of times the file is ingested.
    expect(runless()).toEqual([
      { line: 1, batch: last() },
      { line: 2, batch: last() },
    ]);
    checked(await ingestText(db, "lonely.jsonl", text));
    expect(runless()).toEqual([
      { line: 1, batch: last() },
      { line: 2, batch: last() },
    ]);
    // Once the run exists, a re-ingest counts them against it.
    checked(await ingestText(db, "other.jsonl", lines(traceLine({ run: "lonely" }))));
    checked(await ingestText(db, "lonely.jsonl", text));
    expect(runRow("lonely")).toMatchObject({ trace_count: 1, rejected_count: 2 });
    expect(errorsOf("lonely").map((e) => e.line)).toEqual([1, 2]);
  });
});

describe("models", () => {
  it("pins a run's model and rejects a record naming another one", async () => {
    const text = lines(
      traceLine({ run: "pin", model: "qwen2.5-7b" }),
      traceLine({ run: "pin", model: "llama-3" }),
      traceLine({ run: "pin", model: "qwen2.5-7b" }, { timezone: "UTC" }),
    );
    const s = checked(await ingestText(db, "pinning.jsonl", text));
    expect(s).toMatchObject({ ingested: 2, rejected: 1 });
    expect(s.errors[0]).toEqual({
      file: "pinning.jsonl",
      line: 2,
      reason: 'model "llama-3" differs from run "pin"\'s pinned model "qwen2.5-7b"',
    });
    expect(runRow("pin")).toMatchObject({ model: "qwen2.5-7b", trace_count: 2 });
    expect(errorsOf("pin")).toEqual([
      { line: 2, reason: s.errors[0].reason, raw: traceLine({ run: "pin", model: "llama-3" }) },
    ]);
    expect(runRow("pin")?.rejected_count).toBe(1);
    expect(runRow("pinning")).toBeUndefined();
  });

  it("gives a record with no model --model, else unknown", async () => {
    checked(await ingestText(db, "m.jsonl", lines(traceLine()), { model: "gpt-4o", run: "with-model" }));
    checked(await ingestText(db, "m.jsonl", lines(traceLine()), { run: "no-model" }));
    expect(runRow("with-model")?.model).toBe("gpt-4o");
    expect(runRow("no-model")?.model).toBe("unknown");
    const s = checked(
      await ingestText(db, "m2.jsonl", lines(traceLine({ model: "other" })), { run: "with-model" }),
    );
    expect(s.rejected).toBe(1);
  });

  it("stores model_mismatch and recorded_mismatch flags in the results", async () => {
    const raw = (model: string) => ({ object: "chat.completion", model, choices: [] });
    const text = lines(
      traceLine({ model: "gpt-4o", raw: raw("gpt-4o-2024-08-06"), label: "INJECT" }, { timezone: "UTC" }),
      traceLine({ model: "gpt-4o", raw: raw("claude-3-haiku"), label: "inject" }, { timezone: "UTC" }),
      traceLine({ model: "gpt-4o", raw: raw("gpt-4o"), label: { timezone: "OMIT", severity: "OMIT" } }),
      traceLine({ model: "gpt-4o", raw: raw("gpt-4"), label: "ASK" }),
    );
    checked(await ingestText(db, "flags.jsonl", text));
    const results = q
      .prepare("SELECT result FROM traces WHERE source = 'flags' ORDER BY id")
      .pluck()
      .all() as string[];
    expect(results.map((r) => JSON.parse(r).flags)).toEqual([
      [],
      ["model_mismatch"],
      [],
      ["model_mismatch", "recorded_mismatch"],
    ]);
    expect(q.prepare("SELECT mismatch_count FROM runs WHERE name = 'flags'").pluck().get()).toBe(2);
  });
});
