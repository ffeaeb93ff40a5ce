/**
 * Tuning benchmark (issue 14): the what-if of an added lexicon term and the re-score that saving
 * it makes, on one run of 1,000,000 stored schedule_window traces (bench/lib/server.ts's
 * loadBigRun builds and reuses it) with a 10,000-fixture set.
 *
 *   (0) the floor: reading what the what-if must read for the term (the timezone DRIFT fields'
 *       tag rows and their responses), without scoring anything;
 *   (1) the what-if of adding a term that moves about 1% of the labels (in this process, median
 *       of three; then `lexicon edit --dry-run` as a command, with its peak RSS);
 *   (2) saving it and `assumeprobe rescore RUN` (wall time, peak RSS, traces scored again and
 *       changed); then the reverse change and its re-score, which leave the database as it was;
 *   (3) the same re-score started from the dashboard (`next start`, built into .next-bench), run on
 *       the server's worker thread while pages are requested: the server's event-loop delay
 *       during it (perf_hooks.monitorEventLoopDelay, p99 and max; target p99 < 50 ms); then the
 *       reverse again.
 *
 *   npm run bench:tune                      # 1,000,000 traces, 10,000 fixtures
 *   npx tsx bench/tune.ts --n 200000 --fixtures 2000 [--no-build]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDb } from "../db/client";
import { syncSeedSet } from "../db/queries/fixtureSeed";
import { addTraceFields } from "../db/queries/fixtures";
import { currentLexicon, saveLexicon } from "../db/queries/lexicon";
import { syncBuiltinProbes } from "../db/queries/probes";
import { findTagId } from "../db/queries/tags";
import { whatIf } from "../db/queries/whatIf";
import { tag } from "../lib/ingest/tags";
import type { Label } from "../lib/probe/schema";
import { vocabWord } from "./lib/generate";
import { actionIds } from "./lib/seeded";
import {
  actionResult,
  build,
  callAction,
  freePort,
  loadBigRun,
  loopDelay,
  startServer,
  time,
} from "./lib/server";
import { benchDir, CLI, ensureCliBundle, fmt, load, runNode } from "./lib/util";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "1000000" },
    fixtures: { type: "string", default: "10000" },
    "no-build": { type: "boolean", default: false },
  },
});
const N = Number(values.n);
const F = Number(values.fixtures);
const RUN = "bench-tune";
const SET = "bench-tune";
const dbPath = join(benchDir(), `tune-${N}.db`);

console.log(`tuning benchmark: ${fmt(N)} traces, ${fmt(F)} fixtures  [${load()}]  node ${process.version}`);
await loadBigRun(dbPath, { n: N, run: RUN, file: `tune-${N}.jsonl` });
ensureCliBundle();
const db = openDb(dbPath);
syncBuiltinProbes(db);
syncSeedSet(db);
const runId = db.sqlite.prepare("SELECT id FROM runs WHERE name = ?").pluck().get(RUN) as number;

// The fixture set: the first F traces' timezone fields with their stored label as expected, every
// 20th DRIFT expected ASK (a reviewer's correction), so a term can fix some.
const have = (db.sqlite
  .prepare("SELECT count(*) FROM fixtures f JOIN fixture_sets s ON s.id = f.set_id WHERE s.name = ?")
  .pluck()
  .get(SET) ?? 0) as number;
if (have < F) {
  const t0 = performance.now();
  const rows = db.sqlite
    .prepare("SELECT id, labels FROM traces WHERE run_id = ? ORDER BY id LIMIT ?")
    .all(runId, F * 3) as { id: number; labels: string }[];
  const items: { traceId: number; field: string; expected: Label }[] = [];
  let drifts = 0;
  for (const r of rows) {
    const l = (JSON.parse(r.labels) as Record<string, Label>).timezone;
    if (!l) continue;
    const expected: Label = l === "DRIFT" && ++drifts % 20 === 0 ? "ASK" : l;
    items.push({ traceId: r.id, field: "timezone", expected });
    if (items.length === F - have) break;
  }
  for (let i = 0; i < items.length; i += 1000) addTraceFields(db, SET, "bench", items.slice(i, i + 1000));
  const now = db.sqlite
    .prepare("SELECT count(*) FROM fixtures f JOIN fixture_sets s ON s.id = f.set_id WHERE s.name = ?")
    .pluck()
    .get(SET) as number;
  console.log(`fixture set ${SET}: ${fmt(now)} fixtures (${fmt((performance.now() - t0) / 1000, 1)} s)`);
} else console.log(`fixture set ${SET}: ${fmt(have)} fixtures (reused)`);

const base = currentLexicon(db);
if (Object.keys(base.entries).length > 0)
  throw new Error(
    `the bench database's lexicon is not empty (v${base.version}): remove ${dbPath} and run again`,
  );

// (0) The floor: the tag rows of the timezone DRIFT fields and their responses, read and nothing else.
{
  const t0 = performance.now();
  const tagId = findTagId(db, tag.label("timezone", "DRIFT")) as number;
  const ids = db.sqlite
    .prepare("SELECT trace_id FROM trace_tags WHERE run_id = ? AND tag_id = ?")
    .pluck()
    .all(runId, tagId) as number[];
  const read = db.sqlite
    .prepare("SELECT response FROM traces WHERE id IN (SELECT value FROM json_each(?))")
    .pluck();
  let bytes = 0;
  for (let i = 0; i < ids.length; i += 500)
    for (const r of read.all(JSON.stringify(ids.slice(i, i + 500))) as string[]) bytes += r.length;
  console.log(
    `(0) floor: ${fmt(ids.length)} DRIFT fields and their responses (${fmt(bytes / 1e6, 1)} MB) read in ${fmt((performance.now() - t0) / 1000, 2)} s  [${load()}]`,
  );
}

/** A term (a generated vocabulary word) whose addition moves about 1% of the labels. */
const entriesFor = (term: string) => ({ timezone: { terms: [term], rule: "anywhere" as const } });
let chosen = { term: vocabWord(0), moved: 0 };
for (const rank of [0, 2, 5, 12, 30, 80]) {
  const term = vocabWord(rank);
  const r = whatIf(db, { kind: "lexicon", entries: entriesFor(term) });
  console.log(
    `    term "${term}" (rank ${rank}): ${fmt(r.traces.moved)} labels move, what-if ${fmt(r.ms / 1000, 2)} s`,
  );
  if (Math.abs(r.traces.moved - N / 100) < Math.abs(chosen.moved - N / 100))
    chosen = { term, moved: r.traces.moved };
}

// (1) The what-if of the chosen term.
const times: number[] = [];
let last: ReturnType<typeof whatIf> | undefined;
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  last = whatIf(db, { kind: "lexicon", entries: entriesFor(chosen.term) });
  times.push((performance.now() - t0) / 1000);
}
times.sort((a, b) => a - b);
if (!last) throw new Error("no what-if");
console.log(
  `(1) what-if of +"${chosen.term}": median ${fmt(times[1], 2)} s (${times.map((t) => fmt(t, 2)).join(", ")}); ${fmt(last.traces.read)} traces read, ${fmt(last.traces.scored)} scored, ${fmt(last.traces.moved)} labels move (${fmt((100 * last.traces.moved) / N, 2)}%); ${fmt(last.fixtures.touched)} fixtures scored twice, ${fmt(last.fixtures.fixed)} fixed, ${fmt(last.fixtures.broken)} broken  [${load()}]`,
);
console.log(`    in-process peak RSS so far ${fmt(process.resourceUsage().maxRSS / 1024)} MB`);
db.sqlite.close();

const env = { ASSUMEPROBE_DB: dbPath };
const dry = await runNode(
  [CLI, "lexicon", "edit", "--add", `timezone=${chosen.term}`, "--dry-run", "--json", "--by", "bench"],
  env,
);
if (dry.code !== 0) throw new Error(`lexicon edit --dry-run exited ${dry.code}: ${dry.stderr.slice(-2000)}`);
console.log(
  `    assumeprobe lexicon edit --dry-run: ${fmt(dry.seconds, 2)} s wall (with the command's start), peak RSS ${fmt(dry.peakRssMb ?? 0)} MB`,
);

// (2) Save it, re-score the run; then the reverse.
async function rescore(what: string): Promise<void> {
  const r = await runNode([CLI, "rescore", RUN, "--json", "--by", "bench"], env);
  if (r.code !== 0) throw new Error(`rescore exited ${r.code}: ${r.stderr.slice(-2000)}`);
  const out = JSON.parse(r.stdout.trim().split("\n").pop() ?? "{}") as {
    rescores: { scanned: number; checked: number; changed: number }[];
  };
  const x = out.rescores[0];
  console.log(
    `(2) re-score ${what}: ${fmt(r.seconds, 1)} s wall, peak RSS ${fmt(r.peakRssMb ?? 0)} MB; ${fmt(x.scanned)} traces read, ${fmt(x.checked)} scored again, ${fmt(x.changed)} changed (${fmt((100 * x.changed) / N, 2)}%)  [${load()}]`,
  );
}
const db2 = openDb(dbPath);
saveLexicon(db2, entriesFor(chosen.term), { by: "bench" });
await rescore(`after +"${chosen.term}"`);
saveLexicon(db2, {}, { by: "bench" });
await rescore("after the reverse (the database is as it was)");

// (3) The same re-score from the dashboard, on the server's worker thread, pages requested meanwhile.
build(values["no-build"] ?? false);
ensureCliBundle();
const startRescore = actionIds().get("startRescoreAction");
if (!startRescore) throw new Error("the build has no startRescoreAction");
saveLexicon(db2, entriesFor(chosen.term), { by: "bench" });
const port = await freePort();
const server = await startServer(dbPath, port, { ASSUMEPROBE_LOOP_STATS: "1" });
const dashboard = `http://127.0.0.1:${port}`;
try {
  const runPage = `/runs/${encodeURIComponent(RUN)}`;
  for (let i = 0; i < 3; i++) await time(`${dashboard}${runPage}`);
  // The baseline: the same pages with no re-score running (the delay pages alone cause, and a
  // loaded machine's wait for a core).
  await loopDelay(dashboard);
  const quietPages: number[] = [];
  for (let i = 0; i < 60; i++) quietPages.push((await time(`${dashboard}${i % 2 ? "/" : runPage}`)).ms);
  const quiet = await loopDelay(dashboard);
  quietPages.sort((a, b) => a - b);
  console.log(
    `(3) baseline, no re-score running: ${quietPages.length} pages, median ${fmt(quietPages[Math.floor(quietPages.length / 2)], 1)} ms; server event loop p99 ${fmt(quiet.p99Ms, 1)} ms, max ${fmt(quiet.maxMs, 1)} ms  [${load()}]`,
  );
  const t0 = performance.now();
  const started = actionResult(
    (
      await callAction(dashboard, runPage, startRescore, {
        scope: { kind: "run", run: RUN },
        reviewer: "bench",
      })
    ).body,
  ) as { ok: boolean; jobs?: { id: number }[]; error?: string };
  const id = started.jobs?.[0]?.id;
  if (!started.ok || id === undefined)
    throw new Error(`the re-score did not start: ${JSON.stringify(started)}`);
  const status = db2.sqlite.prepare("SELECT status, scanned, changed FROM rescores WHERE id = ?");
  const pages: number[] = [];
  let end: { status: string; scanned: number; changed: number };
  for (;;) {
    end = status.get(id) as typeof end;
    if (end.status !== "pending") break;
    pages.push((await time(`${dashboard}${pages.length % 2 ? "/" : runPage}`)).ms);
  }
  const seconds = (performance.now() - t0) / 1000;
  const loop = await loopDelay(dashboard);
  pages.sort((a, b) => a - b);
  console.log(
    `(3) dashboard re-score after +"${chosen.term}": ${fmt(seconds, 1)} s, ${fmt(end.scanned)} traces read, ${fmt(end.changed)} changed; ${pages.length} pages meanwhile, median ${fmt(pages[Math.floor(pages.length / 2)] ?? 0, 1)} ms  [${load()}]`,
  );
  console.log(
    `    server event loop during it (perf_hooks.monitorEventLoopDelay): p99 ${fmt(loop.p99Ms, 1)} ms, max ${fmt(loop.maxMs, 1)} ms  (target p99 < 50 ms: ${loop.p99Ms < 50 ? "ok" : "MISS"})`,
  );
} finally {
  server.kill("SIGTERM");
}
saveLexicon(db2, {}, { by: "bench" });
await rescore("after the reverse (the database is as it was)");
db2.sqlite.close();
