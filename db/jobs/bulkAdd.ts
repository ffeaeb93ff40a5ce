/**
 * A bulk add to a fixture set run to its end in the background, as a bulk relabel is (bulk.ts's
 * runBatches): one short batch at a time under a lease renewed in each batch's own transaction,
 * its cursor moved with its writes, so a runner killed part way is resumed with nothing added twice.
 */
import type { Db } from "../client";
import { type BulkAddJob, bulkAddStep, failBulkAdd, getBulkAdd } from "../queries/fixturesBulk";
import { type BatchedJob, type RunOptions, runBatches } from "./bulk";
import type { LeasedTable } from "./lease";

export const BULK_ADD_JOBS: LeasedTable = { table: "bulk_fixture_adds", open: "status = 'running'" };

const BULK_ADD: BatchedJob<BulkAddJob> = {
  table: BULK_ADD_JOBS,
  step: bulkAddStep,
  fail: failBulkAdd,
  get: getBulkAdd,
};

/** Runs one bulk add until it is done, cancelled or failed, or another runner holds it (then it does nothing). */
export function runBulkAdd(
  db: Db,
  id: number,
  opts: Omit<RunOptions, "onProgress"> & { onProgress?: (job: BulkAddJob) => void } = {},
): Promise<BulkAddJob | undefined> {
  return runBatches(db, BULK_ADD, id, opts);
}
