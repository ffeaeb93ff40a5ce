/**
 * Bulk adds to a fixture set as job rows (`bulk_fixture_adds`): their spec, mark, cursor, counts,
 * lease and the fields they left out because someone reviewed them after the count. The batches
 * are fixturesBulk.ts's bulkAddStep; db/jobs/bulkAdd.ts runs them in the background.
 */
import type { TraceFilter } from "../../lib/traceFilter";
import type { Db } from "../client";
import { endRunningJob, type LeftOutField, leftOutFields } from "./bulkJobRows";
import type { BulkMarkIds } from "./bulkSelection";

export interface BulkAddSpec {
  runId: number;
  /** The run page's filter (paging is ignored). */
  filter: TraceFilter;
  /** The filtered field, or `*` for any field. */
  field: string;
  /**
   * Which fields it adds: `corrections` (the human label differs from the scorer's stored one),
   * `confirmations` (the same), so a set can guard both sides of the boundary, or `all` (both; the
   * default here, as before the choice existed; the dashboard offers the two and starts on
   * corrections).
   */
  kind?: BulkAddKind;
}

export const BULK_ADD_KINDS = ["corrections", "confirmations", "all"] as const;
export type BulkAddKind = (typeof BULK_ADD_KINDS)[number];
export const DEFAULT_BULK_ADD_KIND: BulkAddKind = "all";

/** Whether a field with this human label and this stored label of ours is of the kind. */
export function ofKind(kind: BulkAddKind, human: string, ours: string): boolean {
  if (kind === "all") return true;
  return kind === "confirmations" ? human === ours : human !== ours;
}

/** A field a bulk add left out because someone reviewed it after the count, with that review. */
export type BulkAddChanged = LeftOutField;

/** What a bulk add did (so far, while it runs). */
export interface BulkAddResult {
  set: string;
  created: boolean;
  added: number;
  relabelled: number;
  unchanged: number;
  /** Selected fields with no human label. */
  noLabel: number;
  /** Fields reviewed after the count: skipped, never added with a label the reviewer did not see. */
  changed: number;
  /** The first of those (up to 100). */
  changes: BulkAddChanged[];
  /** Transactions written. */
  batches: number;
}

export type BulkAddStatus = "running" | "done" | "failed" | "cancelled";

export interface BulkAddJob
  extends Required<BulkAddSpec>,
    BulkMarkIds,
    Omit<BulkAddResult, "set" | "changes"> {
  id: number;
  setName: string;
  reviewer: string;
  /** The count the reviewer confirmed. */
  total: number;
  cursor: number;
  status: BulkAddStatus;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

const JOB_COLUMNS = `id, run_id AS runId, filter, field, kind, set_name AS setName, created, reviewer, total,
  seen_review_id AS seenReviewId, last_trace_id AS lastTraceId, cursor, added, relabelled, unchanged,
  no_label AS noLabel, changed, batches, status, error, created_at AS createdAt, updated_at AS updatedAt,
  finished_at AS finishedAt`;

function toJob(r: Record<string, unknown> | undefined): BulkAddJob | undefined {
  if (!r) return undefined;
  return {
    ...(r as unknown as BulkAddJob),
    created: r.created === 1,
    filter: JSON.parse(r.filter as string) as TraceFilter,
  };
}

export function getBulkAdd(db: Db, id: number): BulkAddJob | undefined {
  return toJob(
    db.sqlite.prepare(`SELECT ${JOB_COLUMNS} FROM bulk_fixture_adds WHERE id = ?`).get(id) as never,
  );
}

/** The run's newest bulk add (running or not), to show its progress after a reload. */
export function latestBulkAdd(db: Db, runId: number): BulkAddJob | undefined {
  return toJob(
    db.sqlite
      .prepare(`SELECT ${JOB_COLUMNS} FROM bulk_fixture_adds WHERE run_id = ? ORDER BY id DESC LIMIT 1`)
      .get(runId) as never,
  );
}

/** Records a confirmed bulk add (call inside a transaction, once its set exists). */
export function insertBulkAdd(
  db: Db,
  spec: BulkAddSpec,
  mark: BulkMarkIds & { total: number },
  set: { name: string; created: boolean },
  reviewer: string,
): number {
  return db.sqlite
    .prepare(
      `INSERT INTO bulk_fixture_adds(run_id, filter, field, kind, set_name, created, reviewer, total, seen_review_id, last_trace_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    )
    .pluck()
    .get(
      spec.runId,
      JSON.stringify(spec.filter),
      spec.field,
      spec.kind ?? DEFAULT_BULK_ADD_KIND,
      set.name,
      set.created ? 1 : 0,
      reviewer,
      mark.total,
      mark.seenReviewId,
      mark.lastTraceId,
    ) as number;
}

/** Stops a running bulk add after the batch it is in (what it wrote stays). */
export function cancelBulkAdd(db: Db, id: number): BulkAddJob | undefined {
  endRunningJob(db, "bulk_fixture_adds", id, "cancelled");
  return getBulkAdd(db, id);
}

export function failBulkAdd(db: Db, id: number, error: string): void {
  endRunningJob(db, "bulk_fixture_adds", id, { error });
}

/** The fields a job left out because someone reviewed them after the count, with that review. */
export function bulkAddChanges(db: Db, id: number, limit = 100): BulkAddChanged[] {
  return leftOutFields(db, "bulk_fixture_add_changes", id, limit);
}

/** A job's counts as the result the add shows (with the first fields it left out). */
export function bulkAddResult(db: Db, job: BulkAddJob, changesListed = 100): BulkAddResult {
  return {
    set: job.setName,
    created: job.created,
    added: job.added,
    relabelled: job.relabelled,
    unchanged: job.unchanged,
    noLabel: job.noLabel,
    changed: job.changed,
    changes: job.changed > 0 ? bulkAddChanges(db, job.id, changesListed) : [],
    batches: job.batches,
  };
}
