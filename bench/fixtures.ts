/**
 * Fixture-set benchmark (issue 13).
 *
 * 1. A database (/tmp/assumeprobe-bench/fixtures.db, reused when it holds both sets) with two
 *    sets written through the one write path (writeFixture, batches of 2,000): `bench-10k`
 *    (--n, default 10,000 fixtures) and `bench-100k` (--export, default 100,000), over the three
 *    built-in probes' worlds (schedule_window, deploy_service, open_incident): questions with and
 *    without ask terms, omissions, copied and invented values, Zipf-worded texts; the expected
 *    label is the scorer's, except a third of the DRIFTs, which reviewers called ASK (those fail).
 * 2. The re-run of bench-10k in this process (rerunSet: score every fixture, store the re-run and
 *    its 10,000 results), --rounds times after one warm-up; and the scoring alone. Target < 1 s.
 * 3. `assumeprobe fixtures check bench-10k` as a whole command (the bundled CLI, as installed):
 *    wall time and peak RSS, three times.
 * 4. `assumeprobe fixtures export bench-100k` (JSONL, then pytest, then pytest --with-reference)
 *    to a file: wall time, size and peak RSS. Target: peak RSS < 200 MB.
 * 5. The run page's bulk add (--bulk, default 10,000 fields: the most one add takes) on a run of
 *    as many generated traces, each timezone field reviewed: the count and the add in this
 *    process, with the longest the event loop was held (a batch) while they ran.
 *
 *   npm run bench:fixtures
 *   npx tsx bench/fixtures.ts --n 10000 --export 100000 --bulk 10000 --rounds 5
 */
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { type Db, openDb } from "../db/client";
import { rerunSet } from "../db/queries/fixtureRuns";
import { FixtureScoring } from "../db/queries/fixtureScoring";
import { syncSeedSet } from "../db/queries/fixtureSeed";
import { createSet, deleteSet, fixtureTransaction, getSet } from "../db/queries/fixtureSets";
import { writeFixture } from "../db/queries/fixtures";
import { addFilterToSet, countBulkAdd } from "../db/queries/fixturesBulk";
import { getProbe, syncBuiltinProbes } from "../db/queries/probes";
import { writeReviews } from "../db/queries/reviews";
import { writeSync } from "../db/write";
import { configurationOf } from "../lib/fixtures/configuration";
import { fixtureScorer } from "../lib/fixtures/score";
import { type WorldSnapshot, worldSnapshot } from "../lib/fixtures/world";
import { Rng } from "../lib/generate/rng";
import type { NormalizedResponse } from "../lib/probe/response";
import type { Label } from "../lib/probe/schema";
import type { TraceScore } from "../lib/probe/score";
import { parseTraceFilter } from "../lib/traceFilter";
import { traceLines, vocabWord } from "./lib/generate";
import { benchDir, CLI, ensureCliBundle, fmt, load, median, runNode, writeLines } from "./lib/util";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "10000" },
    export: { type: "string", default: "100000" },
    bulk: { type: "string", default: "10000" },
    rounds: { type: "string", default: "5" },
  },
});
const N = Number(values.n);
const EXPORT_N = Number(values.export);
const BULK = Number(values.bulk);
const ROUNDS = Number(values.rounds);
const SMALL = "bench-10k";
const LARGE = "bench-100k";
const BULK_RUN = "bench-fixtures-bulk";
const BULK_SET = "bench-bulk";

const dir = benchDir();
const dbPath = join(dir, "fixtures.db");

const QUESTIONS = [
  "Which timezone should I use?",
  "What time zone is the user in?",
  "Which zone?",
  "Which region is u_9182 in? I need that to place 09:00 correctly.",
  "Where is the user located?",
  "Could you confirm the severity?",
  "Which region should it go to?",
  "What should I do next?",
];
const VALUES = [
  "UTC",
  "Asia/Tokyo",
  "acme-west",
  "America/New_York",
  "P3",
  "us-east-1",
  "Europe/Paris",
  "eu-central-1",
];

function words(rng: Rng): string {
  const n = rng.int(3, 12);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(vocabWord(Math.min(4999, Math.floor(rng.logNormal(20, 1.5)))));
  return out.join(" ");
}

/** One fixture's response for a world's field: a question, a silence, an omission or a value. */
function response(i: number, rng: Rng, world: WorldSnapshot, field: string): NormalizedResponse {
  const kind = rng.weighted([
    ["ask", 4],
    ["drift", 2],
    ["omit", 2],
    ["value", 3],
  ] as const);
  if (kind === "ask" || kind === "drift") {
    const q = kind === "ask" ? rng.pick(QUESTIONS) : "Done.";
    return { text: `${words(rng)} ${q} (${i})`, tool_calls: [], fenced: false };
  }
  const args: Record<string, unknown> = { n: i };
  if (kind === "value") args[field] = rng.pick(VALUES);
  return {
    text: null,
    tool_calls: [{ name: world.tool?.name ?? null, arguments: args }],
  } as NormalizedResponse;
}

function worlds(db: Db): { world: WorldSnapshot; score: ReturnType<typeof fixtureScorer> }[] {
  return ["schedule_window", "deploy_service", "open_incident"].map((id) => {
    const stored = getProbe(db, id);
    if (!stored) throw new Error(`built-in probe ${id} missing`);
    const world = worldSnapshot(stored.probe);
    return { world, score: fixtureScorer(world, configurationOf(stored.probe)) };
  });
}

function setSize(db: Db, name: string): number {
  const set = getSet(db, name);
  if (!set) return -1;
  return db.sqlite.prepare("SELECT count(*) FROM fixtures WHERE set_id = ?").pluck().get(set.id) as number;
}

/** Writes `n` fixtures into a new set through writeFixture, 2,000 to a transaction. */
function buildSet(db: Db, name: string, n: number): void {
  if (getSet(db, name)) deleteSet(db, name);
  const set = createSet(db, name, `benchmark: ${fmt(n)} generated fixtures`);
  const ws = worlds(db);
  const rng = new Rng(`fixtures-${name}`);
  const t0 = performance.now();
  for (let start = 0; start < n; start += 2000) {
    fixtureTransaction(db, () => {
      for (let i = start; i < Math.min(n, start + 2000); i++) {
        const { world, score } = ws[i % ws.length];
        const field = world.fields[rng.int(0, world.fields.length - 1)];
        const r = response(i, rng, world, field);
        const label = score(r, field).label;
        const expected: Label = label === "DRIFT" && rng.chance(1 / 3) ? "ASK" : label;
        writeFixture(db, set.id, {
          world,
          response: r,
          field,
          expected,
          reviewer: "bench",
          note: "",
          source: null,
          sourceTraceId: null,
        });
      }
    });
  }
  console.log(`  ${name}: ${fmt(n)} fixtures written in ${fmt((performance.now() - t0) / 1000, 1)} s`);
}

/** Keeps only the newest re-run of a set, so repeated benchmarks do not grow the database. */
function pruneReruns(db: Db, name: string): void {
  const set = getSet(db, name);
  if (!set) return;
  db.sqlite
    .prepare(
      "DELETE FROM fixture_runs WHERE set_id = ? AND id < (SELECT max(id) FROM fixture_runs WHERE set_id = ?)",
    )
    .run(set.id, set.id);
}

const range = (xs: number[], digits = 0) =>
  `median ${fmt(median(xs), digits)} (${fmt(Math.min(...xs), digits)}–${fmt(Math.max(...xs), digits)})`;

async function bulkAdd(db: Db): Promise<void> {
  const runId = () =>
    db.sqlite.prepare("SELECT id FROM runs WHERE name = ?").pluck().get(BULK_RUN) as number | undefined;
  let id = runId();
  const have = id
    ? (db.sqlite.prepare("SELECT trace_count FROM runs WHERE id = ?").pluck().get(id) as number)
    : 0;
  if (have !== BULK) {
    const file = join(dir, `fixtures-bulk-${BULK}.jsonl`);
    writeLines(file, traceLines(BULK, { run: BULK_RUN, model: "tern-7b-instruct", seed: "fixtures-bulk" }));
    console.log(`\ningesting ${fmt(BULK)} traces for the bulk add  [${load()}]`);
    db.sqlite.close();
    const r = await runNode([CLI, "ingest", file, "--no-progress", "--json"], { ASSUMEPROBE_DB: dbPath });
    if (r.code !== 0 && r.code !== 1) throw new Error(`ingest exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
    db = openDb(dbPath);
    id = runId();
    if (!id) throw new Error("the bulk run was not ingested");
    // Every timezone field reviewed: ours confirmed, a third of the DRIFTs relabelled ASK.
    const rows = db.sqlite.prepare("SELECT id, result FROM traces WHERE run_id = ? ORDER BY id").all(id) as {
      id: number;
      result: string;
    }[];
    const rng = new Rng("fixtures-bulk-reviews");
    for (let s = 0; s < rows.length; s += 2000)
      writeSync(db, () => {
        for (const t of rows.slice(s, s + 2000)) {
          const ours = (JSON.parse(t.result) as TraceScore).fields.timezone?.label;
          if (!ours) continue;
          const label: Label = ours === "DRIFT" && rng.chance(1 / 3) ? "ASK" : ours;
          writeReviews(db, {
            traceId: t.id,
            reviewer: "bench",
            items: [{ field: "timezone", label, base: null }],
          });
        }
      });
  }
  if (getSet(db, BULK_SET)) deleteSet(db, BULK_SET);
  const spec = {
    runId: id as number,
    filter: parseTraceFilter({ field: "timezone", human: "reviewed" }),
    field: "timezone",
  };
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const c0 = performance.now();
  const count = await countBulkAdd(db, spec, BULK_SET);
  const countMs = performance.now() - c0;
  const countBlock = loop.max / 1e6;
  loop.reset();
  const a0 = performance.now();
  const r = await addFilterToSet(db, spec, count, BULK_SET, "bench");
  const addMs = performance.now() - a0;
  loop.disable();
  console.log(
    `bulk add of ${fmt(count.total)} reviewed fields (run ${BULK_RUN}, field=timezone&human=reviewed)  [${load()}]`,
  );
  console.log(`  count: ${fmt(countMs)} ms, the event loop held at most ${fmt(countBlock)} ms`);
  console.log(
    `  add:   ${fmt(addMs / 1000, 2)} s (${fmt(r.added)} added, ${fmt(r.unchanged)} already there, ${r.batches} transactions, ${fmt(count.total / (addMs / 1000))} fields/s), the event loop held at most ${fmt(loop.max / 1e6)} ms`,
  );
  db.sqlite.close();
}

async function main(): Promise<void> {
  console.log(`fixture benchmark  [${load()}]  node ${process.version}`);
  let db = openDb(dbPath);
  syncBuiltinProbes(db);
  syncSeedSet(db);
  if (setSize(db, SMALL) !== N || setSize(db, LARGE) !== EXPORT_N) {
    db.sqlite.close();
    for (const s of ["", "-wal", "-shm"]) rmSync(`${dbPath}${s}`, { force: true });
    db = openDb(dbPath);
    syncBuiltinProbes(db);
    syncSeedSet(db);
    console.log(`building ${dbPath}  [${load()}]`);
    buildSet(db, SMALL, N);
    buildSet(db, LARGE, EXPORT_N);
  } else console.log(`database: ${dbPath} already holds ${SMALL} and ${LARGE} (reused)`);

  // 2. The re-run in process, and the scoring alone.
  const set = getSet(db, SMALL);
  if (!set) throw new Error("no small set");
  rerunSet(db, SMALL, "cli");
  const whole: number[] = [];
  const scoring: number[] = [];
  let last = rerunSet(db, SMALL, "cli");
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    last = rerunSet(db, SMALL, "cli");
    whole.push(performance.now() - t0);
    const s0 = performance.now();
    const ctx = new FixtureScoring(db);
    let passed = 0;
    for (const r of db.sqlite
      .prepare("SELECT world_digest AS world, response, field, expected FROM fixtures WHERE set_id = ?")
      .iterate(set.id) as Iterable<{ world: string; response: string; field: string; expected: string }>)
      if (ctx.scorer(r.world)(JSON.parse(r.response) as NormalizedResponse, r.field).label === r.expected)
        passed++;
    scoring.push(performance.now() - s0);
    if (passed !== last.run.passed)
      throw new Error(`scoring alone passed ${passed}, the re-run ${last.run.passed}`);
  }
  console.log(
    `\nre-run of ${fmt(N)} fixtures in process (${fmt(last.run.passed)} pass, ${fmt(last.run.failed)} fail), ${ROUNDS} rounds  [${load()}]`,
  );
  console.log(`  whole re-run (score, compare, store):  ${range(whole)} ms   target < 1,000 ms`);
  console.log(`  reading and scoring alone:             ${range(scoring)} ms`);
  pruneReruns(db, SMALL);
  db.sqlite.close();

  // 3. fixtures check as a whole command.
  ensureCliBundle();
  const checks: { s: number; rss: number | null; code: number | null }[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await runNode([CLI, "fixtures", "check", SMALL], { ASSUMEPROBE_DB: dbPath }, "/dev/null");
    checks.push({ s: r.seconds, rss: r.peakRssMb, code: r.code });
  }
  console.log(`\nassumeprobe fixtures check ${SMALL} (exit ${checks[0].code}: some fail)  [${load()}]`);
  console.log(
    `  ${range(
      checks.map((c) => c.s),
      2,
    )} s, peak RSS ${range(
      checks.map((c) => c.rss ?? 0),
      0,
    )} MB`,
  );

  // 4. Exports of the large set as whole commands.
  console.log(`\nassumeprobe fixtures export ${LARGE} (${fmt(EXPORT_N)} fixtures)  [${load()}]`);
  for (const [what, args] of [
    ["JSONL", []],
    ["pytest", ["--format", "pytest"]],
    ["pytest --with-reference", ["--format", "pytest", "--with-reference"]],
  ] as const) {
    const file = join(dir, `fixtures-export.${what.startsWith("JSONL") ? "jsonl" : "py"}`);
    const r = await runNode([CLI, "fixtures", "export", LARGE, ...args], { ASSUMEPROBE_DB: dbPath }, file);
    if (r.code !== 0) throw new Error(`export exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
    const mb = statSync(file).size / 1e6;
    console.log(
      `  ${what.padEnd(24)} ${fmt(r.seconds, 1)} s, ${fmt(mb, 1)} MB (${fmt(mb / r.seconds, 1)} MB/s), peak RSS ${fmt(r.peakRssMb ?? 0)} MB   target < 200 MB`,
    );
  }
  db = openDb(dbPath);
  pruneReruns(db, SMALL);

  // 5. The bulk add.
  if (BULK > 0) await bulkAdd(db);
  else db.sqlite.close();
}

await main();
