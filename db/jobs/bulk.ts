/**
 * A bulk relabel job (and, through runBatches, a bulk add to a fixture set: bulkAdd.ts) run to its end, one short batch at a time, pausing between batches so other
 * writers get the lock. The runner holds the job by a lease (lease.ts) renewed in each batch's own
 * transaction; one that lost it writes nothing more. The dashboard runs it on a worker thread
 * (background.ts); the CLI's `bulk-run` and the tests call runBulk directly.
 */
import type { Db } from "../client";
import { type BulkJob, bulkStep, failBulk, getBulkJob } from "../queries/bulkReviews";
import { claimLease, LEASE_MS, type LeasedTable, newLeaseOwner, releaseLease } from "./lease";

export const BULK_JOBS: LeasedTable = { table: "bulk_reviews", open: "status = 'running'" };

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function isBusy(e: unknown): boolean {
  return e instanceof Error && "code" in e && String((e as { code: unknown }).code).startsWith("SQLITE_BUSY");
}

export interface RunOptions {
  /** Waits between batches (0: only yield the thread). */
  pauseMs?: number;
  owner?: string;
  /** Fields a batch writes at most (default and cap: BULK_MAX_FIELDS). */
  maxFields?: number;
  /** After each batch, with the job as it stands. */
  onProgress?: (job: BulkJob) => void;
}

/** A job written in batches: one batch, marking it failed, and reading it. */
export interface BatchedJob<J extends { status: string }> {
  table: LeasedTable;
  step(
    db: Db,
    id: number,
    opts: { maxFields?: number; lease: { owner: string; until: number } },
  ): J | undefined;
  fail(db: Db, id: number, error: string): void;
  get(db: Db, id: number): J | undefined;
}

/**
 * Runs a batched job until it is done, cancelled or failed, or another runner holds it (then it
 * does nothing): claims its lease once, renews it in each batch's own transaction, retries a batch
 * another writer kept busy, and gives the lease up at the end. Resolves with the job as it ended.
 */
export async function runBatches<J extends { status: string }>(
  db: Db,
  kind: BatchedJob<J>,
  id: number,
  opts: Omit<RunOptions, "onProgress"> & { onProgress?: (job: J) => void } = {},
): Promise<J | undefined> {
  const owner = opts.owner ?? newLeaseOwner();
  if (!claimLease(db, kind.table, id, owner)) return kind.get(db, id);
  const held = db.sqlite.prepare(`SELECT lease_owner FROM ${kind.table.table} WHERE id = ?`).pluck();
  let busy = 0;
  try {
    for (;;) {
      let job: J | undefined;
      try {
        job = kind.step(db, id, {
          maxFields: opts.maxFields,
          lease: { owner, until: Date.now() + LEASE_MS },
        });
        busy = 0;
      } catch (e) {
        // Another writer held the database past the busy timeout: try again a little later.
        if (isBusy(e) && ++busy < 5) {
          await sleep(500 * busy);
          continue;
        }
        kind.fail(db, id, e instanceof Error ? e.message : String(e));
        return kind.get(db, id);
      }
      if (job?.status !== "running") return job;
      if (held.get(id) !== owner) return job;
      opts.onProgress?.(job);
      if (opts.pauseMs) await sleep(opts.pauseMs);
      else await tick();
    }
  } finally {
    releaseLease(db, kind.table, id, owner);
  }
}

const BULK: BatchedJob<BulkJob> = { table: BULK_JOBS, step: bulkStep, fail: failBulk, get: getBulkJob };

/**
 * Runs one bulk relabel until it is done, cancelled or failed, or another runner holds it (then it
 * does nothing). Resolves with the job as it ended.
 */
export function runBulk(db: Db, id: number, opts: RunOptions = {}): Promise<BulkJob | undefined> {
  return runBatches(db, BULK, id, opts);
}
