/**
 * The kinds of background job and the one function that runs each: what the worker thread
 * (worker.ts) calls directly, with the job's id. Each claims its job's lease itself, once.
 */
import type { Db } from "../client";
import { BULK_JOBS, runBulk } from "./bulk";
import { BULK_ADD_JOBS, runBulkAdd } from "./bulkAdd";
import type { LeasedTable } from "./lease";
import { DASHBOARD_RESCORES, runLeasedRescore } from "./rescore";

export interface JobProgress {
  done: number;
  total: number;
}

export interface JobRequest {
  kind: JobKind;
  id: number;
  /** The database file. */
  path: string;
  /** The lease owner's name the runner claims the job for (the thread's parent names it). */
  owner: string;
  /** A bulk job's wait between batches (default 10 ms, so other writers get the lock). */
  pauseMs?: number;
  /** A bulk job's fields per batch (default: BULK_MAX_FIELDS, BULK_ADD_BATCH_FIELDS). */
  maxFields?: number;
}

/** How a job ended: `ran` false when another runner held it. */
export interface JobEnd {
  ran: boolean;
  status?: string;
}

interface Kind {
  lease: LeasedTable;
  run(db: Db, r: JobRequest, onProgress: (p: JobProgress) => void): Promise<JobEnd>;
}

export const JOB_KINDS = {
  bulk: {
    lease: BULK_JOBS,
    async run(db, r, onProgress) {
      let ran = false;
      const job = await runBulk(db, r.id, {
        owner: r.owner,
        pauseMs: r.pauseMs ?? 10,
        maxFields: r.maxFields,
        onProgress: (j) => {
          ran = true;
          onProgress({ done: j.written + j.skipped, total: j.total });
        },
      });
      return { ran: ran || job?.status !== "running", status: job?.status };
    },
  },
  bulkAdd: {
    lease: BULK_ADD_JOBS,
    async run(db, r, onProgress) {
      let ran = false;
      const job = await runBulkAdd(db, r.id, {
        owner: r.owner,
        pauseMs: r.pauseMs ?? 10,
        maxFields: r.maxFields,
        onProgress: (j) => {
          ran = true;
          onProgress({ done: j.added + j.relabelled + j.unchanged + j.changed, total: j.total });
        },
      });
      return { ran: ran || job?.status !== "running", status: job?.status };
    },
  },
  rescore: {
    lease: DASHBOARD_RESCORES,
    async run(db, r, onProgress) {
      const report = runLeasedRescore(db, r.id, {
        owner: r.owner,
        onProgress: (p) => onProgress({ done: p.scanned, total: p.total }),
      });
      return { ran: report !== undefined, status: report?.status };
    },
  },
} satisfies Record<string, Kind>;

export type JobKind = keyof typeof JOB_KINDS;

/** Runs one job to its end (or until it loses its lease) on this thread. */
export function runJob(
  db: Db,
  r: JobRequest,
  onProgress: (p: JobProgress) => void = () => {},
): Promise<JobEnd> {
  return (JOB_KINDS[r.kind] as Kind).run(db, r, onProgress);
}
