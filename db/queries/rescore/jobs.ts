/**
 * The `rescores` rows: a re-score queued (for the versions that scored each trace, after a parser
 * change; or for a configuration, the current one when queued), listed, its progress and its
 * report. run.ts runs one to its end; the dashboard's run as a job (db/jobs/rescore.ts) on a
 * worker thread. A re-score's progress and transitions are its row itself.
 */
import { emptyTransitions, type ScoreTransitions } from "../../../lib/probe/transitions";
import type { Db } from "../../client";
import { currentLexiconVersion } from "../lexicon";
import { getProbe } from "../probes";
import type { StoredPlan } from "../scoringTargets";

export interface RescoreReport {
  id: number;
  run: string;
  reason: string;
  status: "pending" | "done";
  /** Traces read: every trace of the run by its end. */
  scanned: number;
  /**
   * Traces scored again: all of them for a parser re-score; for one that applies a configuration,
   * only those it can change (the rest are read cheaply and left alone).
   */
  checked: number;
  changed: number;
  resigned: number;
  skipped: number;
  transitions: ScoreTransitions;
  /** The configuration it applies (null: each trace's own versions, after a parser change). */
  plan: StoredPlan | null;
  requestedBy: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** The first traces that could not be re-read, with why (left as stored). */
  skips: { trace_id: number; reason: string }[];
}

/** A `rescores` row as a run reads it. */
export interface JobRow {
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
  config: string | null;
  requestedBy: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/** Queues a re-score of a run; returns its id. `config` names a configuration other than the stored versions. */
export function queueRescore(
  db: Db,
  runId: number,
  reason: string,
  config: string | null = null,
  requestedBy: string | null = null,
): number {
  return db.sqlite
    .prepare("INSERT INTO rescores(run_id, reason, config, requested_by) VALUES (?, ?, ?, ?) RETURNING id")
    .pluck()
    .get(runId, reason, config, requestedBy) as number;
}

/**
 * Queues a re-score of a run that applies the current configuration: the current lexicon and
 * each probe's current version (their configurations), as they are now, whatever is saved later.
 */
export function queueConfigRescore(
  db: Db,
  runId: number,
  reason: string,
  requestedBy: string | null,
): number {
  const probes: Record<string, number> = {};
  const ids = db.sqlite
    .prepare("SELECT DISTINCT probe_id FROM run_scoring WHERE run_id = ? ORDER BY probe_id")
    .pluck()
    .all(runId) as string[];
  for (const id of ids) {
    const p = getProbe(db, id);
    if (p) probes[id] = p.version;
  }
  const plan: StoredPlan = { lexicon: currentLexiconVersion(db), probes };
  return queueRescore(db, runId, reason, JSON.stringify(plan), requestedBy);
}

/** A run's re-scores, newest first, with their transitions. */
export function listRescores(db: Db, runId: number, limit = 10): RescoreReport[] {
  const ids = db.sqlite
    .prepare("SELECT id FROM rescores WHERE run_id = ? ORDER BY id DESC LIMIT ?")
    .pluck()
    .all(runId, limit) as number[];
  return ids
    .map((id) => jobRow(db, id))
    .filter((j): j is JobRow => j !== undefined)
    .map(toReport);
}

/**
 * Re-scores not finished a migration queued (the one-time re-score after an upgrade, which setup
 * runs before the dashboard starts), oldest first: not those someone asked for with a configuration
 * (the dashboard's, which its server resumes in the background: db/jobs).
 */
export function upgradeRescores(db: Db): number[] {
  return db.sqlite
    .prepare(
      "SELECT id FROM rescores WHERE status = 'pending' AND (config IS NULL OR requested_by IS NULL) ORDER BY id",
    )
    .pluck()
    .all() as number[];
}

/** Ids of re-scores not finished (queued, or stopped part way), oldest first. */
export function pendingRescores(db: Db): number[] {
  return db.sqlite
    .prepare("SELECT id FROM rescores WHERE status = 'pending' ORDER BY id")
    .pluck()
    .all() as number[];
}

/** A re-score's row, with its run's name. */
export function jobRow(db: Db, id: number): JobRow | undefined {
  return db.sqlite
    .prepare(
      `SELECT j.id, j.run_id AS runId, r.name AS run, j.reason, j.status, j.after_trace_id AS afterTraceId,
        j.scanned, j.changed, j.resigned, j.skipped, j.report, j.config, j.requested_by AS requestedBy,
        j.created_at AS createdAt, j.finished_at AS finishedAt
       FROM rescores j JOIN runs r ON r.id = j.run_id WHERE j.id = ?`,
    )
    .get(id) as JobRow | undefined;
}

/** A row as its report. */
export function toReport(j: JobRow): RescoreReport {
  const r = JSON.parse(j.report) as {
    transitions?: ScoreTransitions;
    skips?: RescoreReport["skips"];
    checked?: number;
  };
  return {
    id: j.id,
    run: j.run,
    reason: j.reason,
    status: j.status,
    scanned: j.scanned,
    checked: r.checked ?? (j.config === null ? j.scanned : 0),
    changed: j.changed,
    resigned: j.resigned,
    skipped: j.skipped,
    transitions: r.transitions ?? emptyTransitions(),
    skips: r.skips ?? [],
    plan: j.config === null ? null : (JSON.parse(j.config) as StoredPlan),
    requestedBy: j.requestedBy,
    createdAt: j.createdAt,
    finishedAt: j.finishedAt,
  };
}

/** Saves a batch's progress: the cursor, the counts and the report; done ends the lease. */
export function saveJob(db: Db, id: number, report: RescoreReport, cursor: number, done: boolean): void {
  const status = done ? "done" : "pending";
  db.sqlite
    .prepare(
      `UPDATE rescores SET after_trace_id = ?, scanned = ?, changed = ?, resigned = ?, skipped = ?,
        report = ?, status = ?, lease_until = CASE WHEN ? = 'done' THEN NULL ELSE lease_until END,
        finished_at = CASE WHEN ? = 'done' THEN strftime('%Y-%m-%dT%H:%M:%fZ','now') END WHERE id = ?`,
    )
    .run(
      cursor,
      report.scanned,
      report.changed,
      report.resigned,
      report.skipped,
      JSON.stringify({ transitions: report.transitions, skips: report.skips, checked: report.checked }),
      status,
      status,
      status,
      id,
    );
}

/** Queues a configuration re-score of each run (by id) for the dashboard to run; returns their ids. */
export function queueDashboardRescores(db: Db, runIds: number[], by: string): number[] {
  return runIds.map((runId) => queueConfigRescore(db, runId, "configuration", by));
}

export interface RescoreProgressView {
  id: number;
  run: string;
  status: "pending" | "done";
  scanned: number;
  total: number;
  changed: number;
  requestedBy: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/** The progress of some re-scores (a page polls it). */
export function rescoreProgress(db: Db, ids: number[]): RescoreProgressView[] {
  return db.sqlite
    .prepare(
      `SELECT j.id, r.name AS run, j.status, j.scanned, r.trace_count AS total, j.changed,
         j.requested_by AS requestedBy, j.created_at AS createdAt, j.finished_at AS finishedAt
       FROM rescores j JOIN runs r ON r.id = j.run_id WHERE j.id IN (SELECT value FROM json_each(?)) ORDER BY j.id`,
    )
    .all(JSON.stringify(ids)) as RescoreProgressView[];
}

/** Configuration re-scores still pending (of one run, when given), oldest first (what a page shows as running). */
export function pendingConfigRescores(db: Db, runId?: number): number[] {
  return (
    runId === undefined
      ? db.sqlite.prepare(
          "SELECT id FROM rescores WHERE status = 'pending' AND config IS NOT NULL ORDER BY id",
        )
      : db.sqlite.prepare(
          "SELECT id FROM rescores WHERE run_id = ? AND status = 'pending' AND config IS NOT NULL ORDER BY id",
        )
  )
    .pluck()
    .all(...(runId === undefined ? [] : [runId])) as number[];
}
