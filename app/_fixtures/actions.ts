"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { currentReviewer } from "@/app/_review/reviewer";
import { getDb } from "@/db/client";
import { runDeletionImpact } from "@/db/queries/fixtureList";
import { syncSeedSet } from "@/db/queries/fixtureSeed";
import { addHumanFields } from "@/db/queries/fixtures";
import { addFilterToSet, BULK_ADD_MAX, type BulkAddResult } from "@/db/queries/fixturesBulk";
import { getRunSummary } from "@/db/queries/runs";
import { FixtureError } from "@/lib/fixtures/errors";
import { SEED_SET, SetNameSchema } from "@/lib/fixtures/setName";
import { ANY_FIELD } from "@/lib/ingest/tags";
import { describeZodError, ReviewerSchema } from "@/lib/review/contract";
import { parseTraceFilter } from "@/lib/traceFilter";

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
  | { ok: false; error: string; needsReviewer?: true };

/**
 * Adds one trace field to a fixture set with its current human label as the expected label (the
 * trace page's and the review queue's add key), through the one write path.
 */
export async function addToSetAction(input: unknown): Promise<AddToSetResult> {
  const parsed = AddSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: describeZodError(parsed.error) };
  const d = parsed.data;
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
    if (e instanceof FixtureError) return { ok: false, error: e.message };
    console.error("adding a fixture failed", e);
    return { ok: false, error: "the fixture could not be saved: try again" };
  }
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

const BulkSchema = z.object({
  run: z.string().min(1).max(500),
  /** The run page's query string (its filter). */
  query: z.string().max(4000),
  field: z.string().min(1).max(200),
  set: SetNameSchema,
});

export type BulkAddResultView =
  | ({ ok: true; limit: number } & BulkAddResult)
  | { ok: false; error: string; needsReviewer?: true };

/** Adds every field a run page's filter shows to a set, each with its current human label. */
export async function bulkAddToSetAction(input: unknown): Promise<BulkAddResultView> {
  const parsed = BulkSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: describeZodError(parsed.error) };
  const d = parsed.data;
  const who = await currentReviewer();
  if (!who.name) return { ok: false, error: "say who is reviewing first", needsReviewer: true };
  const db = getDb();
  const run = getRunSummary(db, d.run);
  if (!run) return { ok: false, error: `there is no run "${d.run}"` };
  if (d.field !== ANY_FIELD && !run.fields.some((f) => f.field === d.field))
    return { ok: false, error: `run "${run.name}" has no field "${d.field}"` };
  const filter = parseTraceFilter(Object.fromEntries(new URLSearchParams(d.query)));
  try {
    syncSeedSet(db);
    const r = await addFilterToSet(
      db,
      { runId: run.id, filter: { ...filter, field: d.field }, field: d.field },
      d.set,
      who.name,
    );
    revalidatePath("/fixtures");
    return { ok: true, limit: BULK_ADD_MAX, ...r };
  } catch (e) {
    if (e instanceof FixtureError) return { ok: false, error: e.message };
    console.error("bulk add to a fixture set failed", e);
    return { ok: false, error: "the fixtures could not be added: try again" };
  }
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
