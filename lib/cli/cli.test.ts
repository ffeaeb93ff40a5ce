import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { ARGS, ARTICLE_FIXTURES, cliSandbox, jsonl, runCli } from "./testCli";

const box = cliSandbox("cli");
afterAll(box.cleanup);
/** `score` needs no database: point it at one that does not exist. */
const noDb = { ASSUMEPROBE_DB: join(box.dir, "absent.db") };
function traceCount(): number {
  const db = new Database(box.dbPath, { readonly: true });
  try {
    return db.prepare("SELECT count(*) FROM traces").pluck().get() as number;
  } finally {
    db.close();
  }
}
const score = (args: string[], input?: string) => runCli(["score", ...args], noDb, input);

const OPEN = (verdict: string) => ({ verdict, unknown: [], conflict: [], next: null });
const BLOCK_ASK = { verdict: "block", unknown: ["timezone"], conflict: [], next: "ask" };
const field = (label: string, extra: Record<string, unknown> = {}) => ({ label, ...extra, flags: [] });

/** The exact lines `score` prints for the article's four fixtures (key order included). */
const ARTICLE_LINES = [
  { line: 1, fields: { timezone: field("ASK"), severity: field("DRIFT") }, flags: [], gate: OPEN("no_call") },
  { line: 2, fields: { timezone: field("OMIT"), severity: field("OMIT") }, flags: [], gate: BLOCK_ASK },
  {
    line: 3,
    fields: { timezone: field("INJECT", { reasons: ["bait"] }), severity: field("OMIT") },
    flags: [],
    gate: BLOCK_ASK,
  },
  {
    line: 4,
    fields: { timezone: field("INJECT", { reasons: ["hidden"] }), severity: field("OMIT") },
    flags: [],
    gate: BLOCK_ASK,
  },
].map((o) => JSON.stringify(o));

// Each test spawns the CLI (tsx compiles it on start): slow on a loaded machine.
const SLOW = { timeout: 120_000 };

describe("score", SLOW, () => {
  const fixtures = box.file("article.jsonl", jsonl(ARTICLE_FIXTURES));

  it("labels the article's four fixtures ASK, OMIT, INJECT, INJECT, in the documented shape", async () => {
    const r = await score([fixtures]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.lines).toEqual(ARTICLE_LINES);
    expect(existsSync(noDb.ASSUMEPROBE_DB)).toBe(false);
  });

  it("reads standard input with `-` and with no file argument", async () => {
    const input = jsonl(ARTICLE_FIXTURES);
    for (const r of await Promise.all([score(["-"], input), score([], input)])) {
      expect(r.code).toBe(0);
      expect(r.lines).toEqual(ARTICLE_LINES);
    }
  });

  it("prints source on COPY, the gate's next step, and side_effect when the record has one", async () => {
    const known = { status: "known", value: "Asia/Tokyo", source: "user" };
    const file = box.file(
      "more.jsonl",
      jsonl([
        { tool_call: { arguments: { ...ARGS, timezone: "U_9182", severity: "window" } } },
        {
          response: { tool_call: { arguments: { ...ARGS, timezone: "Asia/Tokyo" } } },
          world_state: { timezone: known },
        },
        {
          response: { tool_call: { arguments: ARGS } },
          world_state: { timezone: { status: "conflict", value: "UTC" }, user_id: { status: "unknown" } },
        },
        {
          id: "se-1",
          response: { tool_call: { arguments: ARGS } },
          side_effect: { written: { ...ARGS, timezone: "UTC" } },
        },
      ]),
    );
    const r = await score([file]);
    expect(r.code).toBe(0);
    const [copy, allow, stop, side] = r.lines.map((l) => JSON.parse(l));
    expect(JSON.stringify(copy.fields)).toBe(
      JSON.stringify({
        timezone: field("COPY", { source: "state" }),
        severity: field("COPY", { source: "user" }),
      }),
    );
    expect(allow.gate).toEqual(OPEN("allow"));
    expect(allow.fields.timezone).toEqual(field("INJECT", { reasons: ["hidden"] }));
    expect(JSON.stringify(stop.gate)).toBe(
      JSON.stringify({ verdict: "block", unknown: ["user_id"], conflict: ["timezone"], next: "stop" }),
    );
    expect(Object.keys(side)).toEqual(["line", "id", "fields", "flags", "gate", "side_effect"]);
    expect(side.side_effect).toEqual({
      fields: {
        timezone: { label: "INJECT", reasons: ["bait"], flags: ["backend_default"] },
        severity: field("OMIT"),
      },
    });
  });

  it("reports a bad record as `line N: reason` on stderr, scores the rest, and exits 1", async () => {
    const file = box.file(
      "bad.jsonl",
      `${JSON.stringify(ARTICLE_FIXTURES[0])}\nnot json\n[1]\n\n${JSON.stringify(ARTICLE_FIXTURES[2])}\n`,
    );
    const r = await score([file]);
    expect(r.code).toBe(1);
    expect(r.lines.map((l) => JSON.parse(l).line)).toEqual([1, 5]);
    expect(r.lines[0]).toBe(ARTICLE_LINES[0]);
    const err = r.stderr.trim().split("\n");
    expect(err).toHaveLength(2);
    expect(err[0]).toMatch(/^line 2: not JSON: /);
    expect(err[1]).toBe("line 3: the record is an array, not an object");
  });

  it("exits 2 for an unknown --probe, an unreadable file and an unknown option", async () => {
    const [unknown, missing, directory, option] = await Promise.all([
      score(["--probe", "no_such_probe", fixtures]),
      score([join(box.dir, "missing.jsonl")]),
      score([box.dir]),
      score(["--frobnicate", fixtures]),
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown probe "no_such_probe"');
    expect(unknown.stdout).toBe("");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("missing.jsonl: no such file");
    expect(directory.code).toBe(2);
    expect(directory.stderr).toContain("is a directory");
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("unknown option '--frobnicate'");
  });
});

describe("ingest", SLOW, () => {
  const good = box.file("good.jsonl", jsonl(ARTICLE_FIXTURES));
  const bad = box.file("mixed.jsonl", `${JSON.stringify(ARTICLE_FIXTURES[0])}\n{"response": 7}\n`);

  it("prints a summary with exactly the documented keys as the last line with --json, and exits 0", async () => {
    const r = await box.run(["ingest", good, "--json", "--model", "qwen"]);
    expect(r.code).toBe(0);
    const last = JSON.parse(r.lines.at(-1) ?? "");
    expect(Object.keys(last)).toEqual([
      "records",
      "ingested",
      "duplicates",
      "rejected",
      "runs",
      "errors",
      "formats",
    ]);
    expect(last).toEqual({
      records: 4,
      ingested: 4,
      duplicates: 0,
      rejected: 0,
      runs: [{ name: "good", ingested: 4 }],
      errors: [],
      formats: [{ file: good, format: "trace", evidence: "no other format's fields: read as trace records" }],
    });
    // Stored records are duplicates whatever model a re-ingest defaults them to...
    const again = await box.run(["ingest", good, "--json"]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.lines.at(-1) ?? "")).toMatchObject({
      records: 4,
      ingested: 0,
      duplicates: 4,
      rejected: 0,
    });
    // ...but a new record with no model takes "unknown", which differs from the pinned "qwen".
    appendFileSync(good, `${JSON.stringify({ text: "Which time zone?" })}\n`);
    const grown = await box.run(["ingest", good, "--json"]);
    expect(grown.code).toBe(1);
    expect(JSON.parse(grown.lines.at(-1) ?? "")).toMatchObject({
      records: 5,
      ingested: 0,
      duplicates: 4,
      rejected: 1,
    });
    expect(JSON.parse(grown.lines.at(-1) ?? "").errors[0].reason).toContain('pinned model "qwen"');
    writeFileSync(good, readFileSync(good, "utf8").split("\n").slice(0, 4).join("\n").concat("\n"));
    const same = await box.run(["ingest", good, "--json", "--model", "qwen"]);
    expect(same.code).toBe(0);
    expect(JSON.parse(same.lines.at(-1) ?? "")).toMatchObject({
      ingested: 0,
      duplicates: 4,
      rejected: 0,
      runs: [{ name: "good", ingested: 0 }],
    });
  });

  it("exits 1 when a record was rejected, listing it under errors", async () => {
    const r = await box.run(["ingest", bad, "--json"]);
    expect(r.code).toBe(1);
    const s = JSON.parse(r.lines.at(-1) ?? "");
    expect(s).toMatchObject({ records: 2, ingested: 1, rejected: 1 });
    expect(s.errors).toEqual([
      {
        file: bad,
        line: 2,
        reason: expect.stringMatching(
          /^no record shape matches: response is a number, not an object holding text, tool_call or tool_calls; expected a trace record/,
        ),
      },
    ]);
  });

  it("prints a plain summary without --json and reads standard input as run stdin", async () => {
    const r = await box.run(["ingest", "-"], jsonl(ARTICLE_FIXTURES.slice(0, 2)));
    expect(r.code).toBe(0);
    expect(r.lines[0]).toMatch(/^2 records: 2 ingested, 0 already stored, 0 rejected \(/);
    expect(r.lines[1]).toBe("  run stdin: 2 new traces");
  });

  it("a gzip file cut off partway: keeps what came before, reads the next file, names it, exits 2", async () => {
    const lines = Array.from({ length: 3000 }, (_, i) =>
      JSON.stringify({ ...ARTICLE_FIXTURES[1], id: `c${i}` }),
    );
    const zipped = gzipSync(`${lines.join("\n")}\n`);
    const cut = box.file("cut.jsonl.gz", zipped.subarray(0, Math.floor(zipped.length / 2)));
    const after = box.file("after.jsonl", jsonl(ARTICLE_FIXTURES.slice(0, 2)));
    const r = await box.run(["ingest", cut, after, "--json", "--model", "m"]);
    expect(r.code).toBe(2);
    const s = JSON.parse(r.lines.at(-1) ?? "");
    expect(s.unreadable).toEqual([
      { file: cut, reason: expect.stringMatching(/^not valid gzip: /), lines: expect.any(Number) },
    ]);
    const readLines = s.unreadable[0].lines;
    expect(readLines).toBeGreaterThan(0);
    expect(readLines).toBeLessThan(3000);
    // Every whole line before the cut is stored; the cut-off line is a rejected record; the next file is read.
    expect(s.runs).toEqual([
      { name: "cut", ingested: readLines },
      { name: "after", ingested: 2 },
    ]);
    expect(s.records).toBe(s.ingested + s.duplicates + s.rejected);
    // The line the cut split in two (if it did) is rejected for the cut.
    for (const e of s.errors) {
      expect(e).toEqual({
        file: cut,
        line: readLines + 1,
        reason: expect.stringMatching(/^cut off where reading stopped: not valid gzip: /),
      });
    }
    expect(r.stderr).toContain(`assumeprobe: ${cut}: not valid gzip: `);
    expect(r.stderr).toContain(`(after line ${readLines}); the records before it were kept`);
    // Without --json the plain summary says the same.
    const plain = await box.run(["ingest", cut, "--model", "m"]);
    expect(plain.code).toBe(2);
    expect(plain.stdout).toContain("files not read to their end (the records before the failure were kept):");
    expect(plain.stdout).toMatch(/ {2}\S*cut\.jsonl\.gz after line [\d,]+: not valid gzip: /);
  });

  it("names standard input stdin in its rejected records", async () => {
    const r = await box.run(["ingest", "-", "--json"], "oops\n");
    expect(r.code).toBe(1);
    expect(JSON.parse(r.lines.at(-1) ?? "").errors).toEqual([
      { file: "stdin", line: 1, reason: expect.stringMatching(/^not JSON/) },
    ]);
  });

  it("exits 2 for an unknown --probe, an unreadable file or a usage error", async () => {
    const before = traceCount();
    const [unknown, missing, ...usage] = await Promise.all([
      box.run(["ingest", good, "--probe", "nope"]),
      box.run(["ingest", good, join(box.dir, "gone.jsonl")]),
      box.run(["ingest", good, "--format", "xml"]),
      box.run(["ingest", good, "--nope"]),
      box.run(["ingest"]),
      box.run(["ingest", good, "--max-record-bytes", "0"]),
    ]);
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining('unknown probe "nope"')]);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining("gone.jsonl: no such file")]);
    expect(usage.map((r) => r.code)).toEqual([2, 2, 2, 2]);
    expect(usage[0].stderr).toContain(
      '--format must be one of auto, trace, otlp, phoenix, promptfoo, inspect, langfuse, when2call, got "xml"',
    );
    expect(usage[3].stderr).toContain("--max-record-bytes must be a positive integer");
    // None of them stored anything.
    expect(traceCount()).toBe(before);
  });
});
