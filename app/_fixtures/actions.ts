"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { type ActionFail, refusal, validated } from "@/app/_lib/validatedAction";
import { BulkScopeSchema, bulkScope } from "@/app/_review/bulkScope";
import { currentReviewer } from "@/app/_review/reviewer";
import { getDb } from "@/db/client";
import { startJob } from "@/db/jobs/background";
import { runDeletionImpact } from "@/db/queries/fixtureList";
import { syncSeedSet } from "@/db/queries/fixtureSeed";
import { addHumanFields } from "@/db/queries/fixtures";
import {
  BULK_ADD_KINDS,
  type BulkAddCount,
  cancelBulkAdd,
  countBulkAdd,
  getBulkAdd,
  startBulkAdd,
} from "@/db/queries/fixturesBulk";
import { getRunSummary } from "@/db/queries/runs";
import { SEED_SET, SetNameSchema } from "@/lib/fixtures/setName";
import { ReviewerSchema } from "@/lib/review/contract";
import { type BulkAddJobView, bulkAddJobView } from "./bulkAddView";

const AddSchema = z.object({
  traceId: z.number().int().positive(),
  field: z.string().min(1).max(200),
  set: SetNameSchema,
  /** The name this browser remembers, used only when the server knows none (a token server's session wins). */
  reviewer: ReviewerSchema.optional(),
});

export type AddToSetResult =
  | {
      ok: true;
      set: string;
      created: boolean;
      identity: string;
      expected: string;
      outcome: "added" | "relabelled" | "unchanged";
    }
  | ActionFail;

/**
 * Adds one trace field to a fixture set with its current human label as the expected label (the
 * trace page's and the review queue's add key), through the one write path.
 */
export async function addToSetAction(input: unknown): Promise<AddToSetResult> {
  return validated(AddSchema, input, async (d): Promise<AddToSetResult> => {
    const who = await currentReviewer();
    const reviewer = who.source === "session" ? who.name : (who.name ?? d.reviewer ?? null);
    if (!reviewer) return { ok: false, error: "say who is reviewing first", needsReviewer: true };
    try {
      const db = getDb();
      syncSeedSet(db);
      const r = addHumanFields(db, d.set, reviewer, d.traceId, [d.field]);
      const f = r.fixtures[0];
      if (!f)
        return {
          ok: false,
          error: `${d.field} has no human label yet: label it first (a fixture's expected label is a reviewer's)`,
        };
      revalidatePath("/fixtures");
      return {
        ok: true,
        set: r.set,
        created: r.created,
        identity: f.identity,
        expected: f.expected,
        outcome: f.outcome,
      };
    } catch (e) {
      return refusal(e, "adding a fixture failed", "the fixture could not be saved: try again");
    }
  });
}

/** The names of the sets a field can be added to (every set but the read-only seed). */
export async function writableSetNamesAction(): Promise<string[]> {
  return getDb()
    .sqlite.prepare(
      "SELECT name FROM fixture_sets WHERE builtin = 0 AND name != ? ORDER BY updated_at DESC LIMIT 200",
    )
    .pluck()
    .all(SEED_SET) as string[];
}

const BulkCountSchema = BulkScopeSchema.extend({
  set: SetNameSchema,
  /** Corrections or confirmations (DESIGN.md: a set guards both sides of the boundary). */
  kind: z.enum(BULK_ADD_KINDS).default("corrections"),
});

export type BulkAddCountView = ({ ok: true } & BulkAddCount) | ActionFail;

/**
 * How many fields adding the run page's filter to a set would write, by expected label, with the
 * mark it counts at: the count the reviewer confirms before anything is written.
 */
export async function countBulkAddAction(input: unknown): Promise<BulkAddCountView> {
  return validated(BulkCountSchema, input, async (data) => {
    const s = bulkScope(data);
    if (s.error !== undefined) return { ok: false, error: s.error };
    try {
      syncSeedSet(s.db);
      const c = await countBulkAdd(
        s.db,
        { runId: s.runId, filter: s.filter, field: data.field, kind: data.kind },
        data.set,
      );
      return { ok: true, ...c };
    } catch (e) {
      return refusal(
        e,
        "counting a bulk add to a fixture set failed",
        "the fields could not be counted: try again",
      );
    }
  });
}

const BulkAddSchema = BulkCountSchema.extend({
  total: z.number().int().nonnegative(),
  seenReviewId: z.number().int().nonnegative(),
  lastTraceId: z.number().int().nonnegative(),
});

export type BulkAddStartView = { ok: true; job: BulkAddJobView } | ActionFail;

/**
 * Starts adding what the reviewer confirmed (the count's fields, as of its mark) to the set, each
 * with its human label; it runs on in the background, in short batches, and resumes after a
 * restart. Fields reviewed since the count are skipped and listed.
 */
export async function bulkAddToSetAction(input: unknown): Promise<BulkAddStartView> {
  return validated(BulkAddSchema, input, async (d): Promise<BulkAddStartView> => {
    const who = await currentReviewer();
    if (!who.name) return { ok: false, error: "say who is reviewing first", needsReviewer: true };
    const s = bulkScope(d);
    if (s.error !== undefined) return { ok: false, error: s.error };
    try {
      syncSeedSet(s.db);
      const job = startBulkAdd(
        s.db,
        { runId: s.runId, filter: s.filter, field: d.field, kind: d.kind },
        { total: d.total, seenReviewId: d.seenReviewId, lastTraceId: d.lastTraceId },
        d.set,
        who.name,
      );
      void startJob(s.db, "bulkAdd", job.id);
      revalidatePath("/fixtures");
      return { ok: true, job: bulkAddJobView(s.db, job) };
    } catch (e) {
      return refusal(e, "bulk add to a fixture set failed", "the fixtures could not be added: try again");
    }
  });
}

const JobSchema = z.object({ id: z.number().int().positive() });

type JobView = { ok: true; job: BulkAddJobView } | ActionFail;

/** A bulk add's progress (and, once it ended, what it did): a read, it never starts work. */
export async function bulkAddStatusAction(input: unknown): Promise<JobView> {
  return validated(JobSchema, input, async (data) => {
    const db = getDb();
    const job = getBulkAdd(db, data.id);
    if (!job) return { ok: false, error: `there is no bulk add ${data.id}` };
    return { ok: true, job: bulkAddJobView(db, job) };
  });
}

/** Stops a bulk add after its current batch: what it added stays. */
export async function cancelBulkAddAction(input: unknown): Promise<JobView> {
  return validated(JobSchema, input, async (data) => {
    const db = getDb();
    const job = cancelBulkAdd(db, data.id);
    if (!job) return { ok: false, error: `there is no bulk add ${data.id}` };
    revalidatePath("/fixtures");
    return { ok: true, job: bulkAddJobView(db, job) };
  });
}

/** What deleting a run takes with it (its reviews) and what stays (fixtures made from its traces). */
export async function runDeletionImpactAction(
  name: string,
): Promise<{ reviews: number; reviewers: string[]; fixtures: number } | null> {
  if (typeof name !== "string" || name.length > 500) return null;
  const db = getDb();
  const run = getRunSummary(db, name);
  return run ? runDeletionImpact(db, run.id) : null;
}
