"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { refusal } from "@/app/_lib/validatedAction";
import { currentReviewer } from "@/app/_review/reviewer";
import { getDb } from "@/db/client";
import { writeReviews } from "@/db/queries/reviews";
import { write } from "@/db/write";
import { LabelSchema } from "@/lib/probe/schema";
import { NoteSchema } from "@/lib/review/contract";

const QueueReviewSchema = z.object({
  traceId: z.number().int().positive(),
  field: z.string().min(1, "a field is required").max(200),
  /** null clears; ignored with undo. */
  label: LabelSchema.nullable(),
  /** The review the reviewer saw as the field's current one (null: none). */
  base: z.number().int().positive().nullable(),
  /** Write the label of the review `base` replaced. */
  undo: z.boolean().default(false),
  note: NoteSchema,
  /** Re-render the queue in the same response (the next item comes back with the answer). */
  refresh: z.boolean().default(true),
});
export type QueueReviewInput = z.input<typeof QueueReviewSchema>;

export interface ReviewView {
  id: number;
  field: string;
  label: string | null;
  reviewer: string;
  note: string;
  createdAt: string;
}

export type QueueReviewResult =
  | { ok: true; review: ReviewView }
  | { ok: false; conflict: ReviewView | null }
  | { ok: false; error: string };

const view = (r: ReviewView): ReviewView => ({
  id: r.id,
  field: r.field,
  label: r.label,
  reviewer: r.reviewer,
  note: r.note,
  createdAt: r.createdAt,
});

/**
 * One field's review from the queue, through the one write path without blocking the server's
 * thread while another process holds the write lock (db/write.ts `write`), by the reviewer
 * the server's one lookup names (the login session's, else the browser's cookie), never a name
 * the request carries. A conflict writes nothing and answers with the review that landed
 * meanwhile, so the reviewer can resubmit over it.
 */
export async function reviewFromQueue(input: QueueReviewInput): Promise<QueueReviewResult> {
  const parsed = QueueReviewSchema.safeParse(input);
  if (!parsed.success)
    return {
      ok: false,
      error: parsed.error.issues
        .map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message))
        .join("; "),
    };
  const d = parsed.data;
  const who = await currentReviewer();
  if (!who.name) return { ok: false, error: "enter your name first: every review carries it" };
  try {
    const db = getDb();
    const r = await write(
      db,
      () =>
        writeReviews(db, {
          traceId: d.traceId,
          reviewer: who.name as string,
          note: d.note,
          items: [{ field: d.field, label: d.label, base: d.base, undo: d.undo }],
        }),
      { waitMs: 10_000 },
    );
    if (!r.ok) return { ok: false, conflict: r.conflicts[0]?.current ? view(r.conflicts[0].current) : null };
    if (d.refresh) refresh();
    return { ok: true, review: view(r.reviews[0]) };
  } catch (e) {
    return refusal(e, "review from the queue failed", "the review could not be written; try again");
  }
}
