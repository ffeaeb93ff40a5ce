/**
 * Re-scores started from the dashboard: each runs in a child process (`assumeprobe
 * rescore-jobs`) that holds it by a lease renewed batch by batch, as a bulk relabel does, so the
 * server's thread stays free; a re-score whose runner died (a restart, a kill) is taken over once
 * its lease runs out. Their progress and transitions are the `rescores` rows themselves.
 */
import type { Db } from "../client";
import { queueConfigRescore, type RescoreReport, runRescore } from "./rescore";

/** How long a lease lasts without a batch renewing it. */
export const RESCORE_LEASE_MS = 15_000;

/** Claims a pending re-score for a runner when nobody holds it (no lease, an expired one, or ours). */
export function claimRescore(db: Db, id: number, owner: string, until: number, now = Date.now()): boolean {
  return (
    db.sqlite
      .prepare(
        `UPDATE rescores SET lease_owner = ?, lease_until = ? WHERE id = ? AND status = 'pending'
           AND (lease_owner IS NULL OR lease_owner = ? OR lease_until IS NULL OR lease_until < ?)`,
      )
      .run(owner, until, id, owner, now).changes > 0
  );
}

/** Runs a claimed re-score to its end, renewing the lease after each batch. */
export function runLeasedRescore(db: Db, id: number, owner: string): RescoreReport | undefined {
  if (!claimRescore(db, id, owner, Date.now() + RESCORE_LEASE_MS)) return undefined;
  const renew = db.sqlite.prepare("UPDATE rescores SET lease_until = ? WHERE id = ? AND lease_owner = ?");
  return runRescore(db, id, {
    onProgress: () => {
      renew.run(Date.now() + RESCORE_LEASE_MS, id, owner);
    },
  });
}

/** Queues a configuration re-score of each run (by id) for the dashboard to run; returns their ids. */
export function queueDashboardRescores(db: Db, runIds: number[], by: string): number[] {
  return runIds.map((runId) => queueConfigRescore(db, runId, "configuration", by));
}

/** Pending configuration re-scores nobody runs (no lease, or an expired one). */
export function orphanedRescores(db: Db, now = Date.now()): number[] {
  return db.sqlite
    .prepare(
      `SELECT id FROM rescores WHERE status = 'pending' AND config IS NOT NULL AND requested_by IS NOT NULL
         AND (lease_until IS NULL OR lease_until < ?) ORDER BY id`,
    )
    .pluck()
    .all(now) as number[];
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
