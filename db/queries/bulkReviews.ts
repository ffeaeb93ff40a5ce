/**
 * Bulk relabel of a run page's filter: every selected field gets the same review, through the
 * one write path (writeReviews), in short IMMEDIATE transactions of at most BULK_MAX_FIELDS
 * fields (and about BULK_BUDGET_MS of work), so other writers and page requests get in between.
 * The job is a row with a cursor: a reload or a restart continues where it stopped.
 *
 * The count the reviewer confirms is taken with a mark (`seenReviewId`, the newest review then,
 * and `lastTraceId`, the run's newest trace then). While writing, a field is selected as it was
 * at that mark (its review as of then); one whose review changed since is skipped and listed,
 * never overwritten; traces ingested since are left alone.
 */
import type { Db } from "../client";
import { writeSync } from "../write";
import { type BulkJob, type BulkMark, type BulkSpec, getBulkJob, pageless } from "./bulkJobs";
import { candidatesAfter, selectAsOf, takeMark } from "./bulkSelection";
import { writeReviews } from "./reviews";

export const BULK_MAX_FIELDS = 5_000;
/** A batch stops taking traces after this much work, so it never holds the writer lock or the server's thread long. */
export const BULK_BUDGET_MS = 30;

interface Target {
  traceId: number;
  items: { field: string; base: number | null }[];
  skips: { field: string; reviewId: number }[];
}

/**
 * Whether every candidate of the query is exactly one field to write, with no look at the trace:
 * one field, no human part (the tags decide it) and a label to write (a clear writes only where
 * there is a review to clear).
 */
function idsAreTargets(spec: BulkSpec): boolean {
  return spec.field !== "*" && !spec.filter.human && spec.label !== null;
}

/** One candidate trace: its selected fields as of the mark, split into writes and skips. */
function targetOf(db: Db, spec: BulkSpec, seen: number, traceId: number): Target {
  const out: Target = { traceId, items: [], skips: [] };
  for (const x of selectAsOf(db, spec.filter, spec.field, seen, traceId)) {
    if (x.changed && x.current) out.skips.push({ field: x.field, reviewId: x.current.id });
    else if (spec.label !== null || x.current?.label)
      out.items.push({ field: x.field, base: x.current?.id ?? null });
  }
  return out;
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * How many fields a bulk relabel of this filter would write, with the mark it counts at. Reads in
 * slices and yields between them, so a large count does not hold the server's thread.
 */
export async function countBulk(db: Db, input: BulkSpec): Promise<BulkMark> {
  const spec = { ...input, filter: pageless(input.filter) };
  const { seenReviewId, lastTraceId } = takeMark(db, spec.runId);
  let total = 0;
  let after = 0;
  let started = performance.now();
  for (;;) {
    const ids = candidatesAfter(db, spec, after, lastTraceId);
    if (ids.length === 0) break;
    if (idsAreTargets(spec)) total += ids.length;
    else for (const id of ids) total += targetOf(db, spec, seenReviewId, id).items.length;
    after = ids[ids.length - 1];
    if (performance.now() - started > BULK_BUDGET_MS) {
      await tick();
      started = performance.now();
    }
  }
  return { total, seenReviewId, lastTraceId };
}

/**
 * One batch of a job, in one IMMEDIATE transaction: traces from the cursor on until
 * `maxFields` fields or `budgetMs` of work, each through writeReviews, with the skips and the
 * new cursor. `lease` renews the runner's hold on the job (a runner that no longer holds it writes nothing). Returns the job after the batch.
 */
export function bulkStep(
  db: Db,
  id: number,
  opts: { maxFields?: number; budgetMs?: number; lease?: { owner: string; until: number } } = {},
): BulkJob | undefined {
  const maxFields = Math.min(opts.maxFields ?? BULK_MAX_FIELDS, BULK_MAX_FIELDS);
  const budget = opts.budgetMs ?? BULK_BUDGET_MS;
  writeSync(db, () => {
    const job = getBulkJob(db, id);
    if (job?.status !== "running") return;
    // A runner that lost its lease (another took the job over) writes nothing more.
    if (
      opts.lease &&
      db.sqlite.prepare("SELECT lease_owner FROM bulk_reviews WHERE id = ?").pluck().get(id) !==
        opts.lease.owner
    )
      return;
    const t0 = performance.now();
    const addSkip = db.sqlite.prepare(
      "INSERT OR IGNORE INTO bulk_review_skips(job_id, trace_id, field, review_id) VALUES (?, ?, ?, ?)",
    );
    let cursor = job.cursor;
    let fields = 0;
    let written = 0;
    let skipped = 0;
    let done = false;
    outer: for (;;) {
      const ids = candidatesAfter(db, job, cursor, job.lastTraceId);
      if (ids.length === 0) {
        done = true;
        break;
      }
      for (const traceId of ids) {
        const t = targetOf(db, job, job.seenReviewId, traceId);
        const n = t.items.length + t.skips.length;
        if (fields > 0 && (fields + n > maxFields || performance.now() - t0 > budget)) break outer;
        if (t.items.length > 0) {
          const r = writeReviews(db, {
            traceId,
            reviewer: job.reviewer,
            note: job.note,
            items: t.items.map((it) => ({ field: it.field, label: job.label, base: it.base })),
          });
          // Impossible inside this transaction (the bases were just read): fail loudly if it ever is.
          if (!r.ok)
            throw new Error(`bulk relabel ${id}: trace ${traceId} changed inside its own transaction`);
          written += r.reviews.length;
        }
        for (const s of t.skips) skipped += addSkip.run(id, traceId, s.field, s.reviewId).changes;
        fields += n;
        cursor = traceId;
      }
    }
    db.sqlite
      .prepare(
        `UPDATE bulk_reviews SET cursor = ?, written = written + ?, skipped = skipped + ?,
           status = CASE WHEN ? THEN 'done' ELSE status END,
           finished_at = CASE WHEN ? THEN strftime('%Y-%m-%dT%H:%M:%fZ','now') ELSE finished_at END,
           lease_until = coalesce(?, lease_until),
           updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?`,
      )
      .run(cursor, written, skipped, done ? 1 : 0, done ? 1 : 0, opts.lease?.until ?? null, id);
  });
  return getBulkJob(db, id);
}

export * from "./bulkJobs";
