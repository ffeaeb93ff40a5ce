import type { Db } from "@/db/client";
import { type BulkAddJob, type BulkAddResult, bulkAddResult } from "@/db/queries/fixturesBulk";

/** A bulk add as the run page shows it: its progress, and what it did so far (no filter object crosses to the client). */
export interface BulkAddJobView {
  id: number;
  status: BulkAddJob["status"];
  reviewer: string;
  /** The count the reviewer confirmed. */
  total: number;
  /** Fields taken so far: added, relabelled, already there, or left out as reviewed after the count. */
  done: number;
  error: string | null;
  result: BulkAddResult;
}

export function bulkAddJobView(db: Db, job: BulkAddJob): BulkAddJobView {
  return {
    id: job.id,
    status: job.status,
    reviewer: job.reviewer,
    total: job.total,
    done: job.added + job.relabelled + job.unchanged + job.changed,
    error: job.error,
    result: bulkAddResult(db, job, job.status === "running" ? 0 : 100),
  };
}
