"use server";

import { cookies } from "next/headers";
import { z } from "zod";
import { refusal } from "@/app/_lib/validatedAction";
import { getDb } from "@/db/client";
import { reviewJson, writeReviews } from "@/db/queries/reviews";
import { write } from "@/db/write";
import { describeInvalid } from "@/lib/errors";
import { ReviewerSchema, type ReviewJson, ReviewRequestSchema } from "@/lib/review/contract";
import { currentReviewer, REVIEWER_COOKIE } from "./reviewer";

export type ReviewActionResult =
  | { ok: true; reviews: ReviewJson[] }
  | { ok: false; conflicts: { field: string; current: ReviewJson | null }[] }
  | { ok: false; error: string; needsReviewer?: true };

/**
 * Writes a reviewer's reviews of one trace through the one write path. The reviewer is whoever
 * is reviewing (currentReviewer), never a value from the request.
 */
export async function submitReviewAction(input: unknown): Promise<ReviewActionResult> {
  const parsed = ReviewRequestSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: describeInvalid(parsed.error) };
  const { name: reviewer } = await currentReviewer();
  if (!reviewer) return { ok: false, error: "say who is reviewing first", needsReviewer: true };
  try {
    const db = getDb();
    // On the request thread: waits for the lock without holding the thread, at most 10 s.
    const r = await write(db, () => writeReviews(db, { ...parsed.data, reviewer }), {
      waitMs: 10_000,
    });
    if (!r.ok)
      return {
        ok: false,
        conflicts: r.conflicts.map((c) => ({ field: c.field, current: c.current && reviewJson(c.current) })),
      };
    return { ok: true, reviews: r.reviews.map(reviewJson) };
  } catch (e) {
    return refusal(e, "review failed", "the review could not be saved: try again");
  }
}

const NameSchema = z.object({ name: ReviewerSchema });

/** Remembers the browser's reviewer name (a cookie the server reads; a year). */
export async function setReviewerAction(
  input: unknown,
): Promise<{ ok: true; name: string } | { ok: false; error: string }> {
  const parsed = NameSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: describeInvalid(parsed.error) };
  const who = await currentReviewer();
  if (who.source === "session")
    return { ok: false, error: "the reviewer name belongs to your login session" };
  (await cookies()).set(REVIEWER_COOKIE, encodeURIComponent(parsed.data.name), {
    path: "/",
    sameSite: "lax",
    maxAge: 365 * 24 * 3600,
  });
  return { ok: true, name: parsed.data.name };
}
