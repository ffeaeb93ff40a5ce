"use server";

import { refresh } from "next/cache";
import { cookies } from "next/headers";
import { z } from "zod";
import { type ActionFail, refusal, validated } from "@/app/_lib/validatedAction";
import { getDb } from "@/db/client";
import { reviewJson, writeReviews } from "@/db/queries/reviews";
import { write } from "@/db/write";
import {
  type ReviewConflictJson,
  ReviewerSchema,
  type ReviewJson,
  type ReviewRequestInput,
  ReviewRequestSchema,
} from "@/lib/review/contract";
import { currentReviewer, REVIEWER_COOKIE } from "./reviewer";

export type ReviewActionResult =
  | { ok: true; reviews: ReviewJson[] }
  | { ok: false; conflicts: ReviewConflictJson[] }
  | ActionFail;

/** How long a review waits for another process's write lock before the reviewer is told to try again. */
const REVIEW_WAIT_MS = 10_000;

/**
 * The one review action, for every page that reviews (the trace page, the queue): a review, a
 * clear or an undo of fields of one trace. It writes through the one write path without holding
 * the server's thread while another process holds the write lock (`write`), by the reviewer the
 * server's one lookup names (the login session's, else the browser's cookie), never a name the
 * request carries. A conflict writes nothing and answers with the reviews that landed meanwhile,
 * so the reviewer can resubmit over them.
 */
export async function submitReviewAction(input: ReviewRequestInput): Promise<ReviewActionResult> {
  return validated(ReviewRequestSchema, input, async ({ refresh: redraw, ...request }) => {
    const { name: reviewer } = await currentReviewer();
    if (!reviewer) return { ok: false, error: "say who is reviewing first", needsReviewer: true } as const;
    try {
      const db = getDb();
      const r = await write(db, () => writeReviews(db, { ...request, reviewer }), { waitMs: REVIEW_WAIT_MS });
      if (!r.ok)
        return {
          ok: false,
          conflicts: r.conflicts.map((c) => ({
            field: c.field,
            current: c.current && reviewJson(c.current),
          })),
        } as const;
      if (redraw) refresh();
      return { ok: true, reviews: r.reviews.map(reviewJson) } as const;
    } catch (e) {
      return refusal(e, "review failed", "the review could not be saved: try again");
    }
  });
}

const NameSchema = z.object({ name: ReviewerSchema });

/** Remembers the browser's reviewer name (a cookie the server reads; a year). */
export async function setReviewerAction(
  input: z.input<typeof NameSchema>,
): Promise<{ ok: true; name: string } | ActionFail> {
  return validated(NameSchema, input, async ({ name }) => {
    const who = await currentReviewer();
    if (who.source === "session")
      return { ok: false, error: "the reviewer name belongs to your login session" } as const;
    (await cookies()).set(REVIEWER_COOKIE, encodeURIComponent(name), {
      path: "/",
      sameSite: "lax",
      maxAge: 365 * 24 * 3600,
    });
    return { ok: true, name } as const;
  });
}
