import { readFileSync } from "node:fs";
import { z } from "zod";
import type { Db } from "../../db/client";
import { currentReviews, writeReviews } from "../../db/queries/reviews";
import { writeSync } from "../../db/write";
import { LabelSchema } from "../probe/schema";
import { ReviewerSchema } from "../review/contract";

const DemoReviewsSchema = z.object({
  reviews: z.array(
    z.object({
      run: z.string(),
      id: z.string(),
      field: z.string(),
      label: z.union([LabelSchema, z.literal("undo"), z.null()]),
      reviewer: ReviewerSchema,
      note: z.string().default(""),
    }),
  ),
});

/**
 * Writes the demo's reviews (fixtures/demo/reviews.json) through the one write path, each over
 * the field's current review, so a first dashboard shows the review loop. Returns how many.
 */
export function loadDemoReviews(db: Db, file: string): number {
  const { reviews } = DemoReviewsSchema.parse(JSON.parse(readFileSync(file, "utf8")));
  const find = db.sqlite.prepare(
    "SELECT t.id FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = ? AND t.ext_id = ?",
  );
  let n = 0;
  for (const r of reviews) {
    const traceId = find.pluck().get(r.run, r.id) as number | undefined;
    if (traceId === undefined) throw new Error(`${file}: no trace ${r.id} in run ${r.run}`);
    const base = currentReviews(db, traceId).get(r.field)?.id ?? null;
    const undo = r.label === "undo";
    const res = writeSync(db, () =>
      writeReviews(db, {
        traceId,
        reviewer: r.reviewer,
        note: r.note,
        items: [
          {
            field: r.field,
            label: undo ? null : (r.label as z.infer<typeof LabelSchema> | null),
            base,
            undo,
          },
        ],
      }),
    );
    if (res.ok) n += res.reviews.length;
  }
  return n;
}
