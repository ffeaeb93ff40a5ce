/**
 * The job room's test kit: a run of traces whose timezone fields a bulk relabel takes, the check
 * that a job did each field exactly once, and (run as a script) a runner in a process of its own
 * that a test can kill: `node --import tsx db/testing/jobs.ts bulk|bulkAdd|rescore DB_PATH JOB_ID`.
 * A bulk add takes the same run's fields once a reviewer has labelled them.
 */
import { execFileSync } from "node:child_process";
import { hostname } from "node:os";
import { join } from "node:path";
import { parseTraceFilter } from "../../lib/traceFilter";
import { type Db, openDb } from "../client";
import { runBulk } from "../jobs/bulk";
import { runBulkAdd } from "../jobs/bulkAdd";
import { runLeasedRescore } from "../jobs/rescore";
import { type BulkJob, countBulk, getBulkJob, startBulk } from "../queries/bulkReviews";
import { type BulkAddJob, countBulkAdd, getBulkAdd, startBulkAdd } from "../queries/fixturesBulk";
import { writeReviews } from "../queries/reviews";
import { writeSync } from "../write";
import { ingestText, traceLine } from "./ingest";
import { reviewInconsistencies } from "./reviews";

/** A run of `n` traces whose timezone field the scorer labels DRIFT (no ask term in the reply). */
export async function driftRun(db: Db, run: string, n: number): Promise<number> {
  const lines = Array.from({ length: n }, (_, i) =>
    traceLine({ id: `${run}-${i}`, response: { text: `Where is the user located? (${i})`, tool_calls: [] } }),
  );
  await ingestText(db, `${run}.jsonl`, `${lines.join("\n")}\n`, { run });
  return db.sqlite.prepare("SELECT id FROM runs WHERE name = ?").pluck().get(run) as number;
}

export const REVIEWER = "bulk-kit";

/** A confirmed bulk relabel of the run's DRIFT timezone fields to ASK. */
export async function startedBulk(db: Db, runId: number): Promise<BulkJob> {
  const spec = {
    runId,
    filter: parseTraceFilter({ label: "DRIFT" }),
    field: "timezone",
    label: "ASK" as const,
  };
  return startBulk(db, spec, await countBulk(db, spec), { reviewer: REVIEWER });
}

/** What a finished job did more than once or not at all (empty: each field exactly once). */
export function doneTwiceOrNot(db: Db, jobId: number): string[] {
  const job = getBulkJob(db, jobId) as BulkJob;
  const out: string[] = [];
  if (job.status !== "done") out.push(`job ${jobId} is ${job.status}`);
  const twice = db.sqlite
    .prepare(
      `SELECT trace_id AS t, count(*) AS n FROM reviews WHERE reviewer = ? AND field = 'timezone'
         AND trace_id IN (SELECT id FROM traces WHERE run_id = ?) GROUP BY trace_id HAVING n > 1`,
    )
    .all(REVIEWER, job.runId) as { t: number; n: number }[];
  for (const r of twice) out.push(`trace ${r.t} reviewed ${r.n} times`);
  const reviewed = db.sqlite
    .prepare(
      `SELECT count(DISTINCT trace_id) FROM reviews WHERE reviewer = ? AND trace_id IN (SELECT id FROM traces WHERE run_id = ?)`,
    )
    .pluck()
    .get(REVIEWER, job.runId) as number;
  if (reviewed !== job.total) out.push(`${reviewed} of ${job.total} fields reviewed`);
  if (job.written !== job.total) out.push(`the job counts ${job.written} written of ${job.total}`);
  return [...out, ...reviewInconsistencies(db)];
}

/** A confirmed bulk add of the run's timezone fields to `set`, once a reviewer labelled each ASK. */
export async function startedBulkAdd(db: Db, runId: number, set: string): Promise<BulkAddJob> {
  const ids = db.sqlite
    .prepare("SELECT id FROM traces WHERE run_id = ? ORDER BY id")
    .pluck()
    .all(runId) as number[];
  for (const traceId of ids)
    writeSync(db, () =>
      writeReviews(db, {
        traceId,
        reviewer: "mira",
        items: [{ field: "timezone", label: "ASK", base: null }],
      }),
    );
  const spec = { runId, filter: parseTraceFilter({ human: "reviewed" }), field: "timezone" };
  return startBulkAdd(db, spec, await countBulkAdd(db, spec, set), set, REVIEWER);
}

/** What a finished bulk add did more than once or not at all (empty: each field added exactly once). */
export function addedTwiceOrNot(db: Db, jobId: number): string[] {
  const job = getBulkAdd(db, jobId) as BulkAddJob;
  const out: string[] = [];
  if (job.status !== "done") out.push(`job ${jobId} is ${job.status}`);
  // A batch run again would find its fixtures there already: counted unchanged, or a second history entry.
  if (job.added !== job.total) out.push(`the job counts ${job.added} added of ${job.total}`);
  if (job.unchanged + job.relabelled > 0)
    out.push(`${job.unchanged} counted already there, ${job.relabelled} relabelled`);
  const rows = db.sqlite
    .prepare(
      `SELECT f.source_trace_id AS t, json_array_length(f.history) AS h FROM fixtures f
       JOIN fixture_sets s ON s.id = f.set_id WHERE s.name = ? AND f.field = 'timezone'`,
    )
    .all(job.setName) as { t: number; h: number }[];
  if (rows.length !== job.total) out.push(`${rows.length} of ${job.total} fields in the set`);
  if (new Set(rows.map((r) => r.t)).size !== rows.length) out.push("a trace's field is in the set twice");
  for (const r of rows) if (r.h !== 1) out.push(`trace ${r.t}'s fixture has ${r.h} history entries`);
  return [...out, ...reviewInconsistencies(db)];
}

/** A lease owner's name for a process of this machine that has ended. */
export function deadOwner(): string {
  const pid = Number(execFileSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]));
  return `${hostname()}:${pid}:dead`;
}

/** Polls until `check` holds (or throws after `ms`). */
export async function until(check: () => boolean, ms = 20_000, what = "the condition"): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

if (process.argv[1]?.endsWith(join("db", "testing", "jobs.ts")) && process.argv.length === 5) {
  const [kind, path, id] = process.argv.slice(2);
  const db = openDb(path);
  // Small batches, a pause between: slow enough for a test to kill it part way.
  if (kind === "bulk") await runBulk(db, Number(id), { maxFields: 2, pauseMs: 50 });
  else if (kind === "bulkAdd") await runBulkAdd(db, Number(id), { maxFields: 2, pauseMs: 50 });
  else
    runLeasedRescore(db, Number(id), {
      batchSize: 10,
      onProgress: () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50),
    });
}
