import type { Label } from "../../lib/probe/schema";
import type { Db } from "../client";

/**
 * What the two bulk jobs (a relabel: `bulk_reviews`, an add to a fixture set: `bulk_fixture_adds`)
 * share in storage: how a running job ends, and the fields it left out because someone reviewed
 * them after the count (`bulk_review_skips`, `bulk_fixture_add_changes`), each with that review.
 */
type JobTable = "bulk_reviews" | "bulk_fixture_adds";
type LeftOutTable = "bulk_review_skips" | "bulk_fixture_add_changes";

/** A field a bulk job left out, with the review made after its count. */
export interface LeftOutField {
  traceId: number;
  field: string;
  review: { id: number; label: Label | null; reviewer: string; createdAt: string };
}

/** Ends a running job as cancelled (after the batch it is in: what it wrote stays) or failed. */
export function endRunningJob(
  db: Db,
  table: JobTable,
  id: number,
  end: { error: string } | "cancelled",
): void {
  const failed = end !== "cancelled";
  db.sqlite
    .prepare(
      `UPDATE ${table} SET status = ?${failed ? ", error = ?" : ""}, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now'),
         finished_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ? AND status = 'running'`,
    )
    .run(...(failed ? ["failed", end.error, id] : ["cancelled", id]));
}

/** The first `limit` fields a job left out, by trace and field. */
export function leftOutFields(db: Db, table: LeftOutTable, id: number, limit: number): LeftOutField[] {
  const rows = db.sqlite
    .prepare(
      `SELECT s.trace_id AS traceId, s.field, r.id AS rid, r.label, r.reviewer, r.created_at AS createdAt
       FROM ${table} s JOIN reviews r ON r.id = s.review_id WHERE s.job_id = ? ORDER BY s.trace_id, s.field LIMIT ?`,
    )
    .all(id, limit) as {
    traceId: number;
    field: string;
    rid: number;
    label: Label | null;
    reviewer: string;
    createdAt: string;
  }[];
  return rows.map((r) => ({
    traceId: r.traceId,
    field: r.field,
    review: { id: r.rid, label: r.label, reviewer: r.reviewer, createdAt: r.createdAt },
  }));
}
