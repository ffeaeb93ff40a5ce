import { type Rescored, rescoreStored } from "../../lib/ingest/rescore";
import type { Lexicon } from "../../lib/lexicon/lexicon";
import { compileProbe } from "../../lib/probe/compile";
import type { Probe } from "../../lib/probe/schema";
import type { TraceScore } from "../../lib/probe/score";
import { addTransition, emptyTransitions, type ScoreTransitions } from "../../lib/probe/transitions";
import type { Db } from "../client";
import { writeSync } from "../write";
import { lexiconAt } from "./lexicon";
import { getProbeVersion } from "./probes";
import {
  applyCounts,
  type CountMoves,
  type Ok,
  rescoreStatements,
  resignTraces,
  rewriteTrace,
  type TraceRow,
  withReviews,
} from "./rescoreWrite";
import { currentReviewLabelsOf } from "./reviews";
import { resetTagCache } from "./tags";

/**
 * Re-scoring stored traces: each trace of a run is scored again from its original record (today's
 * parser and scorer, with the probe version that scored it unless told otherwise), and only
 * traces whose result or normalized response changes are rewritten: their `result`, `labels`,
 * `gate` and `response`, their tag rows with signatures, their search row, and the run's counts.
 * Unchanged traces whose tag rows carry a stale signature (after a layout change reset them to -1)
 * get their current one. Work goes in batches of bounded size, each one short IMMEDIATE
 * transaction that also moves the re-score's cursor and adds its transitions, so a stopped
 * re-score resumes where it stopped and counts nothing twice; running it again changes nothing.
 */

/** What scores a stored trace again: a probe version and a lexicon version. */
export interface ScoringChoice {
  probe: Probe;
  version: number;
  lexicon: Lexicon;
}

export interface RescoreOptions {
  /**
   * What scores a trace (its probe id, probe version and lexicon version): by default the versions
   * that scored it. Undefined: they are not in the database (the trace is skipped and listed).
   */
  scoringFor?: (t: {
    probeId: string;
    probeVersion: number;
    lexiconVersion: number;
  }) => ScoringChoice | string;
  /** Traces per transaction. */
  batchSize?: number;
  /** Original bytes per transaction (a batch ends early past it, after at least one trace). */
  batchBytes?: number;
  onProgress?: (p: RescoreProgress) => void;
  /** Stop after this many batches (the rest stays pending): for tests of a stopped re-score. */
  maxBatches?: number;
}

export interface RescoreProgress {
  run: string;
  scanned: number;
  total: number;
  changed: number;
}

export interface RescoreReport {
  id: number;
  run: string;
  reason: string;
  status: "pending" | "done";
  scanned: number;
  changed: number;
  resigned: number;
  skipped: number;
  transitions: ScoreTransitions;
  /** The first traces that could not be re-read, with why (left as stored). */
  skips: { trace_id: number; reason: string }[];
}

interface JobRow {
  id: number;
  runId: number;
  run: string;
  reason: string;
  status: "pending" | "done";
  afterTraceId: number;
  scanned: number;
  changed: number;
  resigned: number;
  skipped: number;
  report: string;
}

const MAX_SKIPS = 20;

/** Queues a re-score of a run; returns its id. `config` names a configuration other than the stored versions. */
export function queueRescore(db: Db, runId: number, reason: string, config: string | null = null): number {
  return db.sqlite
    .prepare("INSERT INTO rescores(run_id, reason, config) VALUES (?, ?, ?) RETURNING id")
    .pluck()
    .get(runId, reason, config) as number;
}

/** Ids of re-scores not finished (queued, or stopped part way), oldest first. */
export function pendingRescores(db: Db): number[] {
  return db.sqlite
    .prepare("SELECT id FROM rescores WHERE status = 'pending' ORDER BY id")
    .pluck()
    .all() as number[];
}

function jobRow(db: Db, id: number): JobRow | undefined {
  return db.sqlite
    .prepare(
      `SELECT j.id, j.run_id AS runId, r.name AS run, j.reason, j.status, j.after_trace_id AS afterTraceId,
        j.scanned, j.changed, j.resigned, j.skipped, j.report
       FROM rescores j JOIN runs r ON r.id = j.run_id WHERE j.id = ?`,
    )
    .get(id) as JobRow | undefined;
}

function toReport(j: JobRow): RescoreReport {
  const r = JSON.parse(j.report) as { transitions?: ScoreTransitions; skips?: RescoreReport["skips"] };
  return {
    id: j.id,
    run: j.run,
    reason: j.reason,
    status: j.status,
    scanned: j.scanned,
    changed: j.changed,
    resigned: j.resigned,
    skipped: j.skipped,
    transitions: r.transitions ?? emptyTransitions(),
    skips: r.skips ?? [],
  };
}

/** The stored versions that scored each trace (probe and lexicon), each read once per re-score. */
function storedVersions(db: Db): NonNullable<RescoreOptions["scoringFor"]> {
  const cache = new Map<string, ScoringChoice | string>();
  return (t) => {
    const key = `${t.probeVersion}\u0000${t.lexiconVersion}\u0000${t.probeId}`;
    let hit = cache.get(key);
    if (hit === undefined) {
      const probe = getProbeVersion(db, t.probeId, t.probeVersion);
      const lexicon = lexiconAt(db, t.lexiconVersion);
      hit = !probe
        ? `probe ${t.probeId} v${t.probeVersion} is not in the database`
        : !lexicon
          ? `lexicon v${t.lexiconVersion} is not in the database`
          : { probe, version: t.probeVersion, lexicon };
      cache.set(key, hit);
    }
    return hit;
  };
}

/**
 * Runs (or resumes) one queued re-score to its end, batch by batch. Re-running a finished one
 * returns its report and writes nothing.
 */
export function runRescore(db: Db, id: number, options: RescoreOptions = {}): RescoreReport {
  const batchSize = options.batchSize ?? 500;
  const batchBytes = options.batchBytes ?? 8 << 20;
  const scoringFor = options.scoringFor ?? storedVersions(db);
  const saveJob = db.sqlite.prepare(
    `UPDATE rescores SET after_trace_id = ?, scanned = ?, changed = ?, resigned = ?, skipped = ?, report = ?,
      status = ?, finished_at = CASE WHEN ? = 'done' THEN strftime('%Y-%m-%dT%H:%M:%fZ','now') END WHERE id = ?`,
  );
  const q = rescoreStatements(db);
  let job = jobRow(db, id);
  if (!job) throw new Error(`there is no re-score ${id}`);
  const total = q.total.get(job.runId) as number;
  let batches = 0;
  const batch = () => {
    // Read inside the transaction: no other writer can change these traces before they are written.
    const j = jobRow(db, id);
    // Its run was deleted since: nothing is left to re-score.
    if (!j) return true;
    const report = toReport(j);
    const window = q.window.all(j.runId, j.afterTraceId, batchSize) as { id: number; bytes: number }[];
    const ids: number[] = [];
    let bytes = 0;
    for (const w of window) {
      if (ids.length > 0 && bytes + w.bytes > batchBytes) break;
      bytes += w.bytes;
      ids.push(w.id);
    }
    const skip = (traceId: number, reason: string) => {
      report.skipped++;
      if (report.skips.length < MAX_SKIPS) report.skips.push({ trace_id: traceId, reason });
    };
    const counts: CountMoves = new Map();
    const unchanged: [TraceRow, Ok][] = [];
    // Reviewed fields keep their human-label tags: a trace's tags are computed with its reviews.
    const reviews = currentReviewLabelsOf(db, ids);
    for (const t of q.traces.all(JSON.stringify(ids)) as TraceRow[]) {
      report.scanned++;
      const chosen = scoringFor(t);
      const r: Rescored =
        typeof chosen !== "string"
          ? withReviews(rescoreStored(t, compileProbe(chosen.probe, chosen.lexicon)), t, reviews.get(t.id))
          : { ok: false, reason: chosen };
      if (!r.ok || typeof chosen === "string") {
        skip(t.id, r.ok ? "no scoring" : r.reason);
        continue;
      }
      const versions = { probe: chosen.version, lexicon: chosen.lexicon.version };
      // A trace whose result stays keeps the versions it was scored with: they still give it.
      if (!r.changed) {
        unchanged.push([t, r]);
        continue;
      }
      let before: TraceScore;
      try {
        before = JSON.parse(t.result) as TraceScore;
      } catch {
        // Its old tags cannot be told: rewriting it could leave its rows and the counts wrong.
        skip(t.id, "its stored result does not parse");
        continue;
      }
      rewriteTrace(db, q, j.runId, t, r, versions, counts, before, reviews.get(t.id));
      report.changed++;
      addTransition(report.transitions, before, r.scored.score, t.id);
    }
    report.resigned += resignTraces(db, q, j.runId, unchanged);
    applyCounts(q, j.runId, counts);
    const done = ids.length === 0;
    const last = done ? j.afterTraceId : ids[ids.length - 1];
    const status = done ? "done" : "pending";
    const json = JSON.stringify({ transitions: report.transitions, skips: report.skips });
    saveJob.run(
      last,
      report.scanned,
      report.changed,
      report.resigned,
      report.skipped,
      json,
      status,
      status,
      id,
    );
    return done;
  };
  while (job.status === "pending") {
    if (options.maxBatches !== undefined && batches >= options.maxBatches) break;
    let done: boolean;
    try {
      done = writeSync(db, batch);
    } catch (e) {
      // The transaction rolled back: forget tag ids it may have created.
      resetTagCache(db);
      throw e;
    }
    batches++;
    const now = jobRow(db, id);
    if (!now) return { ...toReport(job), status: "done" };
    job = now;
    options.onProgress?.({ run: job.run, scanned: job.scanned, total, changed: job.changed });
    if (done) break;
  }
  return toReport(job);
}

/** Queues and runs a re-score of each run (by id); returns their reports in order. */
export function rescoreRuns(
  db: Db,
  runIds: number[],
  reason: string,
  options: RescoreOptions = {},
): RescoreReport[] {
  return runIds.map((runId) => runRescore(db, queueRescore(db, runId, reason), options));
}

/** Queues and runs a re-score of every run. */
export function rescoreAllRuns(db: Db, reason: string, options: RescoreOptions = {}): RescoreReport[] {
  const ids = db.sqlite.prepare("SELECT id FROM runs ORDER BY id").pluck().all() as number[];
  return rescoreRuns(db, ids, reason, options);
}

/** Finishes every queued or stopped re-score (the one-time re-score after an upgrade is queued by a migration). */
export function runPendingRescores(db: Db, options: RescoreOptions = {}): RescoreReport[] {
  return pendingRescores(db).map((id) => runRescore(db, id, options));
}
