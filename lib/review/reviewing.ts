import type { ReviewConflictJson, ReviewItemInput } from "./contract";
import { REVIEW_KEYS } from "./keys";

/**
 * What every page that reviews does around a submission (the trace page, the queue; a blind
 * round's page would too): what undo sends, how a resubmission over a conflict is built, and what
 * the status line says. Pure rules; the pages hold the state (app/_review/useReviewing.ts).
 */

/**
 * A review this browser tab wrote, remembered so `z` can undo it from any page that reviews,
 * the page it was made on or another (the tab's one undo stack, app/_review/undoStack.ts).
 */
export interface UndoEntry {
  traceId: number;
  field: string;
  /** The review written: the undo names it as its base, so a later review by anyone conflicts. */
  reviewId: number;
  /** What it wrote (null: a clear), for the status line. */
  label: string | null;
  /** The page it was made on, showing its trace and field: where its undo goes back to. */
  href: string;
}

/** The submission's item that undoes `e`: the label of the review it replaced, over it. */
export function undoItem(e: UndoEntry): ReviewItemInput {
  return { field: e.field, label: null, base: e.reviewId, undo: true };
}

/** The same items over the reviews a conflict showed (a resubmission that saves over them). */
export function overConflicts(items: ReviewItemInput[], conflicts: ReviewConflictJson[]): ReviewItemInput[] {
  const bases = new Map(conflicts.map((c) => [c.field, c.current?.id ?? null]));
  return items.map((it) => (bases.has(it.field) ? { ...it, base: bases.get(it.field) ?? null } : it));
}

const labelText = (label: string | null) => label ?? "cleared";

/** "Saved on #12: timezone ASK (with a note). z undoes it." */
export function savedMessage(
  traceId: number,
  reviews: { field: string; label: string | null }[],
  withNote: boolean,
): string {
  const what = reviews.map((r) => `${r.field} ${labelText(r.label)}`).join(", ");
  return `Saved on #${traceId}: ${what}${withNote ? " (with a note)" : ""}. ${REVIEW_KEYS.undo} undoes it.`;
}

/** "Undone on #12: timezone COPY, now cleared." */
export function undoneMessage(e: Pick<UndoEntry, "traceId" | "field" | "label">, now: string | null): string {
  return `Undone on #${e.traceId}: ${e.field} ${labelText(e.label)}, now ${labelText(now)}.`;
}

/** Undo found someone else's review on the field since: nothing written. */
export function notUndoneMessage(e: Pick<UndoEntry, "traceId" | "field">, by: string | undefined): string {
  return `Not undone: ${by ?? "someone"} reviewed ${e.field} of #${e.traceId} since. Here it is.`;
}
