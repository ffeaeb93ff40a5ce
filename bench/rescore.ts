/**
 * Re-score benchmark: the cost of re-scoring stored traces (db/queries/rescore.ts), which runs
 * once at start after an upgrade that changes parsing or scoring.
 *
 * Ingests N generated lines (the scoring benchmark's mix) into a fresh database once, then times
 * three re-scores of the whole run on one thread:
 *   (a) nothing changed: every trace is re-read and scored, nothing is written;
 *   (b) after a tag layout change (every signature reset to -1, as migration 0005 does): every
 *       trace's tag rows get their signature back;
 *   (c) every stored result differs: every trace is rewritten (tags, counts, columns).
 *
 *   npm run bench:rescore                  # 100,000 traces
 *   npx tsx bench/rescore.ts --n 200000
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDb } from "../db/client";
import { syncBuiltinProbes } from "../db/queries/probes";
import { queueRescore } from "../db/queries/rescore/jobs";
import { runRescore } from "../db/queries/rescore/run";
import { ingestPaths } from "../db/testing/ingest";
import { traceLines } from "./lib/generate";
import { benchDir, fmt, load, writeLines } from "./lib/util";

const { values } = parseArgs({ options: { n: { type: "string", default: "100000" } } });
const N = Number(values.n);

const dir = join(benchDir(), "rescore");
rmSync(dir, { recursive: true, force: true });
const file = join(dir, `rescore-${N}.jsonl`);
writeLines(file, traceLines(N, { run: "bench-rescore", model: "tern-7b-instruct" }));
const db = openDb(join(dir, "rescore.db"));
syncBuiltinProbes(db);
console.log(`re-score benchmark  [${load()}]  node ${process.version}`);
let t0 = performance.now();
await ingestPaths(db, [file]);
console.log(`    ingested ${fmt(N)} traces in ${fmt((performance.now() - t0) / 1000, 1)} s`);
const runId = db.sqlite.prepare("SELECT id FROM runs WHERE name = 'bench-rescore'").pluck().get() as number;

function timed(what: string): void {
  const id = queueRescore(db, runId, "bench");
  t0 = performance.now();
  const r = runRescore(db, id);
  const s = (performance.now() - t0) / 1000;
  console.log(
    `    ${what}: ${fmt(N / s)} traces/s (${fmt(s, 1)} s; ${fmt(r.changed)} changed, ${fmt(r.resigned)} re-signed)  [${load()}]`,
  );
}

timed("(a) nothing changed");
db.sqlite.prepare("UPDATE trace_tags SET sig = -1").run();
timed("(b) every signature reset");
// A stored result no scorer gives: every trace then differs and is rewritten.
db.sqlite.prepare(`UPDATE traces SET result = json_set(result, '$.flags', json('["stale"]'))`).run();
timed("(c) every result changed");
db.sqlite.close();
rmSync(dir, { recursive: true, force: true });
