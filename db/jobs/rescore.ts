/**
 * A re-score the dashboard queued, run to its end under a lease (lease.ts) renewed after each
 * batch; a runner that lost its lease stops there. Its progress and transitions are the `rescores`
 * row itself. The dashboard runs it on a worker thread (background.ts); the CLI's hidden
 * `rescore-jobs` calls runLeasedRescore directly.
 */
import type { Db } from "../client";
import type { RescoreReport } from "../queries/rescore/jobs";
import { type RescoreOptions, runRescore } from "../queries/rescore/run";
import { claimLease, type LeasedTable, LeaseLost, newLeaseOwner, releaseLease, renewLease } from "./lease";

/** The dashboard's re-scores (a configuration and who asked): the setup's one-time re-scores are not. */
export const DASHBOARD_RESCORES: LeasedTable = {
  table: "rescores",
  open: "status = 'pending' AND config IS NOT NULL AND requested_by IS NOT NULL",
};

/**
 * Runs a re-score to its end when nobody else holds it (undefined when another runner does, or
 * when it lost the lease part way: the batches done so far stay done).
 */
export function runLeasedRescore(
  db: Db,
  id: number,
  opts: { owner?: string; onProgress?: RescoreOptions["onProgress"]; batchSize?: number } = {},
): RescoreReport | undefined {
  const owner = opts.owner ?? newLeaseOwner();
  if (!claimLease(db, DASHBOARD_RESCORES, id, owner)) return undefined;
  try {
    return runRescore(db, id, {
      batchSize: opts.batchSize,
      onProgress: (p) => {
        if (!renewLease(db, DASHBOARD_RESCORES, id, owner))
          throw new LeaseLost(`re-score ${id} was taken over`);
        opts.onProgress?.(p);
      },
    });
  } catch (e) {
    if (e instanceof LeaseLost) return undefined;
    throw e;
  } finally {
    releaseLease(db, DASHBOARD_RESCORES, id, owner);
  }
}
