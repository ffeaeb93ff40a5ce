/**
 * Reviews made by someone else while a page showed a trace: the page knows each field's current
 * review id from when it was drawn, polls the trace's current reviews, and lists the fields whose
 * review is newer than that and was not written from this tab.
 */

/** A field's current review as `GET /traces/ID/reviews` answers it. */
export interface FieldReviewNow {
  id: number;
  /** null: a clear. */
  label: string | null;
  reviewer: string;
  createdAt: string;
}

export interface ReviewedMeanwhile extends FieldReviewNow {
  field: string;
}

/** How often the pages ask, while the tab is visible. */
export const MEANWHILE_POLL_MS = 5000;

/**
 * The fields reviewed since the page was drawn (`known`: each field's review id then, null for
 * none), leaving out reviews this tab wrote (`own`), in the page's field order.
 */
export function reviewedMeanwhile(
  known: Record<string, number | null>,
  now: Record<string, FieldReviewNow>,
  own: ReadonlySet<number>,
): ReviewedMeanwhile[] {
  const out: ReviewedMeanwhile[] = [];
  for (const field of Object.keys(known)) {
    const r = now[field];
    if (!r || own.has(r.id)) continue;
    if (r.id > (known[field] ?? 0)) out.push({ field, ...r });
  }
  return out;
}
