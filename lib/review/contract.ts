import { z } from "zod";
import { LabelSchema } from "../probe/schema";

/**
 * The review contracts shared by every boundary that accepts reviews (the trace page's server
 * actions, bulk relabel, `assumeprobe label`): one definition, imported, never re-declared.
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
  undo: z.boolean().optional(),
});

/** What the trace page sends: the reviewer comes from the session or browser, never the form. */
export const ReviewRequestSchema = z.object({
  traceId: z.number().int().positive(),
  note: NoteSchema,
  items: z.array(ReviewItemSchema).min(1, "nothing to review").max(50),
});
export type ReviewRequest = z.infer<typeof ReviewRequestSchema>;

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
