import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb } from "../../db/client";
import { listTraces } from "../../db/queries/traceList";
import { parseTraceFilter } from "../traceFilter";
import { ARGS, cliSandbox, jsonl } from "./testCli";

const box = cliSandbox("cli-export-filter");
afterAll(box.cleanup);
const SLOW = { timeout: 180_000 };
const ROOT = join(import.meta.dirname, "..", "..");

/** 400 traces: more DRIFT than a page holds, human labels on some, a searchable word on others. */
const records = Array.from({ length: 400 }, (_, i) => {
  const r: Record<string, unknown> = { id: `r${i}`, run: "big", model: "m" };
  if (i % 5 === 0) r.response = { text: "I will get right on it." };
  else if (i % 5 === 1) r.response = { text: "Which timezone are you in?" };
  else if (i % 5 === 2) r.response = { tool_call: { name: "schedule_window", arguments: { ...ARGS } } };
  else
    r.response = {
      tool_call: {
        name: "schedule_window",
        arguments: { ...ARGS, timezone: i % 2 ? "UTC" : "Mars/Olympus" },
      },
    };
  if (i % 3 === 0) r.human = { timezone: i % 2 ? "ASK" : "drift" };
  return r;
});

beforeAll(async () => {
  const ingest = await box.run(["ingest", box.file("big.jsonl", jsonl(records)), "--json", "--no-progress"]);
  expect(ingest.code).toBe(0);
}, 120_000);

/** The run page's whole filter, page after page, through the page's own query. */
function pageIds(query: Record<string, string>): number[] {
  const db = openDb(box.dbPath);
  try {
    const runId = db.sqlite.prepare("SELECT id FROM runs WHERE name = 'big'").pluck().get() as number;
    const ids: number[] = [];
    let after: string | undefined;
    for (;;) {
      const page = listTraces(
        db,
        runId,
        parseTraceFilter({ ...query, ...(after ? { after } : {}) }),
        // The page reads every field unless the filter names one.
        query.field ?? "*",
      );
      ids.push(...page.rows.map((r) => r.id));
      if (page.nextAfter === null) return ids;
      after = String(page.nextAfter);
    }
  } finally {
    db.sqlite.close();
  }
}

const CASES: [string[], Record<string, string>][] = [
  [["--label", "DRIFT"], { label: "DRIFT" }],
  [["--label", "INJECT", "--reason", "bait"], { label: "INJECT", reason: "bait" }],
  [["--gate", "block"], { gate: "block" }],
  [["--human", "differs"], { human: "differs" }],
  [["--human", "reviewed"], { human: "reviewed" }],
  [["--human", "unreviewed", "--label", "INJECT"], { human: "unreviewed", label: "INJECT" }],
  [["--human", "ASK"], { human: "ASK" }],
  [["--search", "timezone"], { q: "timezone" }],
  [["--q", "timezone"], { q: "timezone" }],
  [["--search", "which", "--human", "reviewed"], { q: "which", human: "reviewed" }],
  [
    ["--probe", "schedule_window", "--field", "severity", "--label", "OMIT"],
    { probe: "schedule_window", label: "OMIT" },
  ],
];

describe("export filter flags", SLOW, () => {
  it.each(CASES)("export %j holds exactly the run page's whole filter", async (flags, query) => {
    const out = await box.run(["export", "big", ...flags]);
    expect([out.code, out.stderr]).toEqual([0, ""]);
    const rows = out.lines.map((l) => JSON.parse(l));
    // --field severity reads the severity field, as ?field=severity does on the page.
    const want = flags.includes("severity")
      ? (() => {
          const db = openDb(box.dbPath);
          try {
            const runId = db.sqlite.prepare("SELECT id FROM runs WHERE name = 'big'").pluck().get() as number;
            return listTraces(db, runId, parseTraceFilter(query), "severity", 1000).rows.map((r) => r.id);
          } finally {
            db.sqlite.close();
          }
        })()
      : pageIds(query);
    expect(want.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.trace_id)).toEqual(want);
  });

  it("reads every field unless told one, as the page does: --field any is the default", async () => {
    const ids = async (flags: string[]) =>
      (await box.run(["export", "big", ...flags])).lines.map((l) => JSON.parse(l).trace_id);
    const every = await ids(["--label", "DRIFT"]);
    expect(await ids(["--label", "DRIFT", "--field", "any"])).toEqual(every);
    expect(await ids(["--label", "DRIFT", "--field", "*"])).toEqual(every);
    const timezone = await ids(["--label", "DRIFT", "--field", "timezone"]);
    expect(timezone.length).toBe(80);
    expect(every.length).toBeGreaterThan(timezone.length);
    expect(timezone.every((id: number) => every.includes(id))).toBe(true);
  });

  it("exports more than a page of DRIFT traces, each with its response and human labels", async () => {
    const out = await box.run(["export", "big", "--field", "timezone", "--label", "DRIFT"]);
    const rows = out.lines.map((l) => JSON.parse(l));
    expect(rows.length).toBe(80);
    expect(rows.every((r) => r.fields.timezone.label === "DRIFT")).toBe(true);
    expect(rows[0].response).toEqual({ text: "I will get right on it.", tool_calls: [] });
    expect(rows.filter((r) => r.human.timezone).map((r) => r.human.timezone)).toContain("DRIFT");
  });

  it.each([
    [["--label", "NOPE"], /invalid filter: label must be one of ASK/],
    [["--human", "maybe"], /human must be one of .*reviewed, unreviewed, differs/],
    [["--field", "nosuch"], /run "big" has no field "nosuch"/],
    [["--search", "x".repeat(201)], /search is at most 200 characters/],
    [["--probe", "bad probe"], /probe is not a probe id/],
    [["--search", "which", "--q", "where"], /q is given 2 times/],
  ])("exits 2 for %j and prints nothing", async (flags, message) => {
    const out = await box.run(["export", "big", ...(flags as string[])]);
    expect([out.code, out.stdout]).toEqual([2, ""]);
    expect(out.stderr).toMatch(message as RegExp);
  });
});

/** Runs the CLI with its standard output closed by the reader after `readBytes` (0: at once). */
function runClosingOutput(args: string[], readBytes: number) {
  return new Promise<{ code: number | null; stderr: string; read: number }>((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, "bin", "assumeprobe.js"), ...args], {
      cwd: ROOT,
      env: { ...process.env, ASSUMEPROBE_DB: box.dbPath },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let read = 0;
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    if (readBytes === 0) child.stdout.destroy();
    else
      child.stdout.on("data", (c: Buffer) => {
        read += c.length;
        if (read >= readBytes) child.stdout.destroy();
      });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr, read }));
  });
}

describe("a closed output (| head)", SLOW, () => {
  // Far more than a pipe buffers, so the reader goes away while the command is still writing.
  const many = Array.from({ length: 8000 }, (_, i) => ({ ...records[i % 400], id: `h${i}`, run: "huge" }));
  const big = () => box.file("score.jsonl", jsonl(many));
  beforeAll(async () => {
    expect((await box.run(["ingest", big(), "--json", "--no-progress"])).code).toBe(0);
  }, 120_000);

  it.each([
    ["export", () => ["export", "huge"], 4096],
    ["export, closed at once", () => ["export", "big"], 0],
    ["score", () => ["score", big()], 4096],
    ["probes list", () => ["probes", "list", "--json"], 0],
  ])("ends %s quietly, with no stack trace", async (_name, args, readBytes) => {
    const r = await runClosingOutput((args as () => string[])(), readBytes as number);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
  });
});
