import type { Db } from "@/db/client";
import { currentReviews, type Review, reviewHistory, reviewJson } from "@/db/queries/reviews";
import type { ReviewJson } from "@/lib/review/contract";
import { type HumanLabel, humanLabel } from "@/lib/review/humanLabel";

/** One probed field as the review panel shows it: ours, the current human label and review. */
export interface ReviewFieldView {
  field: string;
  ours: string;
  imported: string | null;
  /** The field's current review (a clear included); what a new review names as its base. */
  current: ReviewJson | null;
  human: HumanLabel | null;
}

/** One review in a field's history: who, when, from which label to which, and the note. */
export interface HistoryEntry {
  id: number;
  field: string;
  reviewer: string;
  createdAt: string;
  /** The label before it (the replaced review's), or null. */
  from: string | null;
  /** null: a clear. */
  to: string | null;
  note: string;
}

export interface ReviewView {
  fields: ReviewFieldView[];
  /** Newest first. */
  history: HistoryEntry[];
}

const HISTORY_LIMIT = 200;

/** What the trace page's review panel and history need, from the trace's reviews. */
export function reviewView(
  db: Db,
  traceId: number,
  fields: Record<string, { label: string }>,
  imported: Record<string, string> | null,
): ReviewView {
  const all = reviewHistory(db, traceId, HISTORY_LIMIT);
  const byId = new Map<number, Review>(all.map((r) => [r.id, r]));
  // The current review per field as the human-label rule reads it (blind rounds decide some:
  // a disputed field's is its newest review, with no label).
  const current = currentReviews(db, traceId);
  return {
    fields: Object.entries(fields).map(([field, s]) => {
      const cur = current.get(field);
      const imp = imported?.[field] ?? null;
      return {
        field,
        ours: s.label,
        imported: imp === null ? null : String(imp).toUpperCase(),
        current: cur ? reviewJson(cur) : null,
        human: humanLabel(cur, imp) ?? null,
      };
    }),
    history: all.map((r) => ({
      id: r.id,
      field: r.field,
      reviewer: r.reviewer,
      createdAt: r.createdAt,
      from: r.replaces === null ? null : (byId.get(r.replaces)?.label ?? null),
      to: r.label,
      note: r.note,
    })),
  };
}
