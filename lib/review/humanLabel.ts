import { LABELS, type Label } from "../probe/schema";

/**
 * The review loop's rules (DESIGN.md, "The review loop"), with no database: what a field's human
 * label is, what a review means against our label, and what an undo writes.
 *
 * Reviews are append-only; a field's current review is its newest. A clear is a review with no
 * label. A field's human label is its current review's label, else (no review, or a clear) its
 * imported label.
 */

/** What the rules need of a stored review. */
export interface ReviewState {
  id: number;
  /** null: a clear. */
  label: Label | null;
  /** The review that was current when this one was written (null: none). */
  replaces: number | null;
}

export type HumanSource = "review" | "imported";

export interface HumanLabel {
  label: string;
  source: HumanSource;
}

/** An imported label as a label: imported files may write `inject`; matching ignores case. */
export function normalizeImported(label: string | undefined | null): string | undefined {
  if (label === undefined || label === null) return undefined;
  return String(label).toUpperCase();
}

/**
 * What a field's current review label reads when blind reviewers disagree and no adjudication has
 * settled it (lib/review/rounds.ts): it has no human label, and the imported one is no fallback.
 */
export const DISPUTED = "?disputed";

/** What the human-label rule needs of a field's current review. */
export interface CurrentLabel {
  label: string | null;
  /** Blind reviewers disagree and no adjudication settled it (lib/review/rounds.ts). */
  disputed?: boolean;
}

/** Whether a current review stands for a disputed field. */
export function isDisputed(current: CurrentLabel | undefined): boolean {
  return Boolean(current?.disputed) || current?.label === DISPUTED;
}

/**
 * A field's human label: its current review's, else its imported one; undefined when neither, and
 * when the field is disputed (blind reviewers disagree, not yet adjudicated).
 */
export function humanLabel(
  current: CurrentLabel | undefined,
  imported: string | undefined | null,
): HumanLabel | undefined {
  if (isDisputed(current)) return undefined;
  if (current?.label) return { label: current.label, source: "review" };
  const i = normalizeImported(imported);
  return i === undefined ? undefined : { label: i, source: "imported" };
}

/** Whether the field counts as reviewed here: its current review has a label (a clear withdraws it). */
export function isReviewed(current: CurrentLabel | undefined): boolean {
  return !isDisputed(current) && Boolean(current?.label);
}

export type ReviewMeaning = "corrects" | "confirms" | "clears";

/** A review corrects the scorer (its label differs from ours) or confirms it; a clear withdraws. */
export function reviewMeaning(label: string | null, ours: string): ReviewMeaning {
  if (label === null) return "clears";
  return label === ours ? "confirms" : "corrects";
}

/**
 * What an undo of the current review writes: the label of the review it replaced (none, when it
 * replaced nothing or a clear: the field falls back to its imported label). `byId` finds the
 * replaced review among the field's history.
 */
export function undoLabel(current: ReviewState, byId: (id: number) => ReviewState | undefined): Label | null {
  if (current.replaces === null) return null;
  return byId(current.replaces)?.label ?? null;
}

/** A label a reviewer typed: one of the six, any case; `-` (or empty) clears; else undefined. */
export function parseReviewLabel(text: string): Label | null | undefined {
  const t = text.trim();
  if (t === "-" || t === "") return null;
  const up = t.toUpperCase();
  return (LABELS as readonly string[]).includes(up) ? (up as Label) : undefined;
}

/** The keys 1-6 of the review keyboard, in DESIGN.md's label order. */
export const LABEL_KEYS: readonly Label[] = LABELS;
