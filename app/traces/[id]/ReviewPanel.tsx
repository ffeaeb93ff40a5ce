"use client";

import { useRouter } from "next/navigation";
import { AddToSet } from "@/app/_fixtures/AddToSet";
import { ConflictNotice } from "@/app/_review/ConflictNotice";
import { ReviewedMeanwhileNotice } from "@/app/_review/ReviewedMeanwhile";
import { ReviewerLine } from "@/app/_review/ReviewerLine";
import { ReviewNote } from "@/app/_review/ReviewNote";
import { useReviewedMeanwhile } from "@/app/_review/useReviewedMeanwhile";
import { type ReviewerState, useReviewer } from "@/app/_review/useReviewer";
import { useReviewing } from "@/app/_review/useReviewing";
import { ReviewFieldRow } from "./ReviewFieldRow";
import type { ReviewFieldView } from "./reviewView";

const here = () => `${window.location.pathname}${window.location.search}`;

/**
 * Relabel the trace's probed fields: the review loop of app/_review (1-6 for the focused field, f
 * to move, n for a note, x to clear, z to undo the tab's last review, and the same with the
 * mouse). After a review the page goes on to the next trace of the filter it came from. Every
 * review names the review it saw; a conflict shows the other review and lets the reviewer save
 * theirs over it; a review someone else makes meanwhile is said as it happens (a poll every few
 * seconds).
 */
export function ReviewPanel({
  traceId,
  fields,
  focusField,
  nextHref,
  reviewer: server,
}: {
  traceId: number;
  fields: ReviewFieldView[];
  focusField: string | null;
  nextHref: string | null;
  reviewer: ReviewerState;
}) {
  const router = useRouter();
  const reviewer = useReviewer(server);
  const r = useReviewing({
    traceId,
    fields,
    focusField,
    reviewer,
    hrefOf: here,
    onSaved: (moveOn) => {
      if (moveOn && nextHref) {
        router.push(nextHref);
        return { left: true };
      }
      router.refresh();
      return moveOn ? { more: "This was the last trace of the filter." } : undefined;
    },
    // The panel shows the other review at once, with the notice.
    onConflict: () => router.refresh(),
  });
  // Someone else's review of a field shown here, found by a light poll.
  const meanwhile = useReviewedMeanwhile(traceId, fields);

  return (
    <section
      className="rounded-lg border border-indigo-200 bg-white p-4 shadow-sm"
      data-testid="review-panel"
      {...r.panel}
      aria-label="Review"
    >
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-sm font-semibold tracking-wide text-slate-700 uppercase">Review</h2>
        <ReviewerLine reviewer={reviewer} />
      </div>
      <p
        role="status"
        aria-live="polite"
        className={r.status ? "mb-2 rounded bg-slate-50 px-2 py-1 text-sm text-slate-800" : "sr-only"}
        data-testid="review-status"
      >
        {r.status}
      </p>
      <ReviewedMeanwhileNotice items={meanwhile} onShow={() => router.refresh()} />
      <ConflictNotice r={r} />
      <ul className="divide-y divide-slate-100" data-testid="review-fields">
        {fields.map((f, i) => (
          <ReviewFieldRow key={f.field} f={f} {...r.row(i)} onUndo={() => r.undoField(i)} />
        ))}
      </ul>
      <ReviewNote note={r.note} />
      <AddToSet
        what="the focused field"
        target={() => (fields[r.focus] ? { traceId, field: fields[r.focus].field } : null)}
      />
      <p className="mt-2 text-[11px] text-slate-500">
        <kbd className="font-mono">1</kbd>–<kbd className="font-mono">6</kbd> relabel the focused field and go
        on · <kbd className="font-mono">f</kbd> next field · <kbd className="font-mono">x</kbd> clear ·{" "}
        <kbd className="font-mono">z</kbd> undo · <kbd className="font-mono">?</kbd> every key
      </p>
    </section>
  );
}
