import { UserError } from "../../lib/errors";
/** Bulk relabel jobs as rows: their spec, mark, progress, lease and skipped fields (db/queries/bulkReviews.ts writes them). */
import type { Label } from "../../lib/probe/schema";
import type { TraceFilter } from "../../lib/traceFilter";
import type { Db } from "../client";
import { writeSync } from "../write";
import { endRunningJob, type LeftOutField, leftOutFields } from "./bulkJobRows";

export interface BulkSpec {
  runId: number;
  /** The run page's filter, without paging. */
  filter: TraceFilter;
  /** The filtered field, or `*` for any field. */
  field: string;
  /** null: clear. */
  label: Label | null;
}

export interface BulkMark {
  /** Fields the bulk relabel would write. */
  total: number;
  seenReviewId: number;
  lastTraceId: number;
}

export type BulkStatus = "running" | "done" | "failed" | "cancelled";

export interface BulkJob extends BulkSpec, BulkMark {
  id: number;
  reviewer: string;
  note: string;
  cursor: number;
  written: number;
  skipped: number;
  status: BulkStatus;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

/** A field a relabel skipped because its review changed after the count, with the review that did. */
export type BulkSkip = LeftOutField;

export class BulkError extends UserError<"bulk"> {
  constructor(message: string) {
    super("bulk", message);
  }
}

/** The filter without paging: what a job stores and walks. */
export function pageless(f: TraceFilter): TraceFilter {
  const { after: _a, before: _b, ...rest } = f;
  return rest;
}

const JOB_COLUMNS = `id, run_id AS runId, filter, field, label, reviewer, note, total, seen_review_id AS seenReviewId,
  last_trace_id AS lastTraceId, cursor, written, skipped, status, error, created_at AS createdAt,
  updated_at AS updatedAt, finished_at AS finishedAt`;

function toJob(r: Record<string, unknown> | undefined): BulkJob | undefined {
  if (!r) return undefined;
  return { ...(r as unknown as BulkJob), filter: JSON.parse(r.filter as string) as TraceFilter };
}

export function getBulkJob(db: Db, id: number): BulkJob | undefined {
  return toJob(db.sqlite.prepare(`SELECT ${JOB_COLUMNS} FROM bulk_reviews WHERE id = ?`).get(id) as never);
}

/** The run's newest bulk relabel (running or not), to show its progress or result. */
export function latestBulkJob(db: Db, runId: number): BulkJob | undefined {
  return toJob(
    db.sqlite
      .prepare(`SELECT ${JOB_COLUMNS} FROM bulk_reviews WHERE run_id = ? ORDER BY id DESC LIMIT 1`)
      .get(runId) as never,
  );
}

/** Records a confirmed bulk relabel; one at a time per run. */
export function startBulk(
  db: Db,
  spec: BulkSpec,
  mark: BulkMark,
  who: { reviewer: string; note?: string },
): BulkJob {
  const reviewer = who.reviewer.trim();
  if (reviewer === "") throw new BulkError("a reviewer name is required");
  const id = writeSync(db, () => {
    const running = db.sqlite
      .prepare("SELECT id FROM bulk_reviews WHERE run_id = ? AND status = 'running'")
      .pluck()
      .get(spec.runId) as number | undefined;
    if (running !== undefined)
      throw new BulkError(`bulk relabel ${running} of this run is still running: wait for it or cancel it`);
    return db.sqlite
      .prepare(
        `INSERT INTO bulk_reviews(run_id, filter, field, label, reviewer, note, total, seen_review_id, last_trace_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      )
      .pluck()
      .get(
        spec.runId,
        JSON.stringify(pageless(spec.filter)),
        spec.field,
        spec.label,
        reviewer,
        who.note ?? "",
        mark.total,
        mark.seenReviewId,
        mark.lastTraceId,
      ) as number;
  });
  return getBulkJob(db, id) as BulkJob;
}

export function cancelBulk(db: Db, id: number): BulkJob | undefined {
  endRunningJob(db, "bulk_reviews", id, "cancelled");
  return getBulkJob(db, id);
}

export function failBulk(db: Db, id: number, error: string): void {
  endRunningJob(db, "bulk_reviews", id, { error });
}

/** Fields a job skipped because their review changed after the count, with the review that did. */
export function bulkSkips(db: Db, id: number, limit = 200): BulkSkip[] {
  return leftOutFields(db, "bulk_review_skips", id, limit);
}
