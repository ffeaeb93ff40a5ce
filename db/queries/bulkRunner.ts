/**
 * Runs bulk relabel jobs to their end, one short batch at a time, pausing between batches so
 * other writers get the lock. A runner holds a job by a lease it renews each batch; a job whose
 * runner died (a restart, a kill) is taken over once its lease runs out. The dashboard runs each
 * job in a child process (app/_review/bulkProcess.ts, `assumeprobe bulk-run`), so its batches
 * never hold the server's thread; tests and the CLI call runBulk directly.
 */
import { randomBytes } from "node:crypto";
import type { Db } from "../client";
import { type BulkJob, bulkStep, claimBulk, failBulk, getBulkJob, runningBulkJobs } from "./bulkReviews";
import { ReviewError } from "./reviews";

/** How long a lease lasts without a batch renewing it. */
export const LEASE_MS = 15_000;

const state = globalThis as unknown as { assumeprobeBulk?: { owner: string; running: Set<number> } };
function runner() {
  state.assumeprobeBulk ??= { owner: `${process.pid}-${randomBytes(4).toString("hex")}`, running: new Set() };
  return state.assumeprobeBulk;
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function isBusy(e: unknown): boolean {
  return e instanceof Error && "code" in e && String((e as { code: unknown }).code).startsWith("SQLITE_BUSY");
}

/**
 * Runs one job until it is done, cancelled or failed (or another runner holds it). Resolves with
 * the job as it ended. `pauseMs` waits between batches (0: only yield the thread).
 */
export async function runBulk(
  db: Db,
  id: number,
  opts: { pauseMs?: number; owner?: string } = {},
): Promise<BulkJob | undefined> {
  const r = runner();
  const owner = opts.owner ?? r.owner;
  if (r.running.has(id)) return getBulkJob(db, id);
  if (!claimBulk(db, id, owner, Date.now() + LEASE_MS)) return getBulkJob(db, id);
  r.running.add(id);
  let busy = 0;
  try {
    for (;;) {
      let job: BulkJob | undefined;
      try {
        job = bulkStep(db, id, { lease: { owner, until: Date.now() + LEASE_MS } });
        busy = 0;
      } catch (e) {
        // Another writer held the database past the busy timeout: try again a little later.
        if (isBusy(e) && ++busy < 5) {
          await sleep(500 * busy);
          continue;
        }
        failBulk(db, id, e instanceof ReviewError || e instanceof Error ? e.message : String(e));
        return getBulkJob(db, id);
      }
      if (job?.status !== "running") return job;
      if (opts.pauseMs) await sleep(opts.pauseMs);
      else await tick();
    }
  } finally {
    r.running.delete(id);
  }
}

/** A new lease owner's name (a runner in another process gets one from its parent). */
export function newLeaseOwner(): string {
  return `${process.pid}-${randomBytes(6).toString("hex")}`;
}

/** Unfinished jobs whose runner is gone (no lease, or an expired one): what a restart resumes. */
export function orphanedBulkJobs(db: Db, now = Date.now()): BulkJob[] {
  const held = new Set(
    db.sqlite
      .prepare(
        "SELECT id FROM bulk_reviews WHERE status = 'running' AND lease_until IS NOT NULL AND lease_until >= ?",
      )
      .pluck()
      .all(now) as number[],
  );
  return runningBulkJobs(db).filter((j) => !held.has(j.id));
}
