"use server";

import { z } from "zod";
import { type ActionFail, validated } from "@/app/_lib/validatedAction";
import { getDb } from "@/db/client";
import { startJob } from "@/db/jobs/background";
import { bulkSkips, cancelBulk, countBulk, getBulkJob, startBulk } from "@/db/queries/bulkReviews";
import { isUserError } from "@/lib/errors";
import { LabelSchema } from "@/lib/probe/schema";
import { NoteSchema } from "@/lib/review/contract";
import { BulkScopeSchema, bulkScope } from "./bulkScope";
import { type BulkJobView, bulkJobView } from "./bulkView";
import { currentReviewer } from "./reviewer";

type Fail = ActionFail;

const CountSchema = BulkScopeSchema.extend({ label: LabelSchema.nullable() });

/** How many fields a bulk relabel of the run page's filter would write, and the mark it counts at. */
export async function countBulkAction(
  input: unknown,
): Promise<{ ok: true; total: number; seenReviewId: number; lastTraceId: number } | Fail> {
  return validated(CountSchema, input, async (data) => {
    const s = bulkScope(data);
    if (s.error !== undefined) return { ok: false, error: s.error };
    const mark = await countBulk(s.db, {
      runId: s.runId,
      filter: s.filter,
      field: data.field,
      label: data.label,
    });
    return { ok: true, ...mark };
  });
}

const StartSchema = CountSchema.extend({
  note: NoteSchema,
  total: z.number().int().nonnegative(),
  seenReviewId: z.number().int().nonnegative(),
  lastTraceId: z.number().int().nonnegative(),
});

/** Starts the bulk relabel the reviewer confirmed; it runs on in the background, in short batches. */
export async function startBulkAction(input: unknown): Promise<{ ok: true; job: BulkJobView } | Fail> {
  return validated(StartSchema, input, async (data): Promise<{ ok: true; job: BulkJobView } | Fail> => {
    const who = await currentReviewer();
    if (!who.name) return { ok: false, error: "say who is reviewing first" };
    const s = bulkScope(data);
    if (s.error !== undefined) return { ok: false, error: s.error };
    const d = data;
    try {
      const job = startBulk(
        s.db,
        { runId: s.runId, filter: s.filter, field: d.field, label: d.label },
        { total: d.total, seenReviewId: d.seenReviewId, lastTraceId: d.lastTraceId },
        { reviewer: who.name, note: d.note },
      );
      void startJob(s.db, "bulk", job.id);
      return { ok: true, job: bulkJobView(job) };
    } catch (e) {
      if (isUserError(e)) return { ok: false, error: e.message };
      throw e;
    }
  });
}

const JobSchema = z.object({ id: z.number().int().positive() });

/** A job's progress (and, once it ended, the fields it skipped): a read, it never starts work. */
export async function bulkStatusAction(input: unknown): Promise<{ ok: true; job: BulkJobView } | Fail> {
  return validated(JobSchema, input, async (data) => {
    const db = getDb();
    const job = getBulkJob(db, data.id);
    if (!job) return { ok: false, error: `there is no bulk relabel ${data.id}` };
    return { ok: true, job: bulkJobView(job, job.status === "running" ? [] : bulkSkips(db, job.id, 100)) };
  });
}

export async function cancelBulkAction(input: unknown): Promise<{ ok: true; job: BulkJobView } | Fail> {
  return validated(JobSchema, input, async (data) => {
    const db = getDb();
    const job = cancelBulk(db, data.id);
    if (!job) return { ok: false, error: `there is no bulk relabel ${data.id}` };
    return { ok: true, job: bulkJobView(job, bulkSkips(db, job.id, 100)) };
  });
}
