import { z } from "zod";
import { LabelSchema } from "../probe/schema";

/**
 * The review contracts shared by every boundary that accepts reviews (the review action of the
 * trace page and the queue, bulk relabel, `assumeprobe label`): one definition, imported, never
 * re-declared.
 */
export const MAX_REVIEWER_LENGTH = 100;
export const MAX_NOTE_LENGTH = 2000;

export const ReviewerSchema = z
  .string()
  .trim()
  .min(1, "a reviewer name is required")
  .max(MAX_REVIEWER_LENGTH, `a reviewer name holds at most ${MAX_REVIEWER_LENGTH} characters`);

export const NoteSchema = z
  .string()
  .max(MAX_NOTE_LENGTH, `a note holds at most ${MAX_NOTE_LENGTH} characters`)
  .default("");

const ReviewIdSchema = z.number().int().positive();

export const ReviewItemSchema = z.object({
  field: z.string().min(1, "a field is required").max(200),
  /** null clears. */
  label: LabelSchema.nullable(),
  /** The review the reviewer saw as current; null: none. */
  base: ReviewIdSchema.nullable(),
  /** Write the label of the review `base` replaced (an undo of `base`); `label` is then ignored. */
  undo: z.boolean().optional(),
});

/**
 * One review submission, as the trace page and the queue send it (one contract, imported by both
 * and by the action that parses it): reviews of fields of one trace, with one note. The reviewer
 * comes from the session or browser, never the request.
 */
export const ReviewRequestSchema = z.object({
  traceId: z.number().int().positive(),
  note: NoteSchema,
  items: z.array(ReviewItemSchema).min(1, "nothing to review").max(50),
  /** Draw the page anew in the same response (the queue: its next item comes back with the answer). */
  refresh: z.boolean().default(false),
});
export type ReviewRequest = z.output<typeof ReviewRequestSchema>;
/** What a page sends (defaults may be left out). */
export type ReviewRequestInput = z.input<typeof ReviewRequestSchema>;
export type ReviewItemInput = z.input<typeof ReviewItemSchema>;

/** The wire shape of a review (the CLI prints it; the page reads it). */
export interface ReviewJson {
  id: number;
  trace_id: number;
  field: string;
  label: string | null;
  reviewer: string;
  note: string;
  replaces: number | null;
  created_at: string;
}

/** A field whose review changed since the page showed it: its current review (null: none now). */
export interface ReviewConflictJson {
  field: string;
  current: ReviewJson | null;
}
