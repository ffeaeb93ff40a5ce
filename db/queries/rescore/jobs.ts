/**
 * Re-scores started from the dashboard as rows: queued here, run by db/jobs/rescore.ts on a worker
 * thread; their progress and transitions are the `rescores` rows themselves.
 */
import type { Db } from "../../client";
import { queueConfigRescore } from "./run";

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
