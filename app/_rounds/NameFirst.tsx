"use client";

import { ReviewerLine } from "@/app/_review/ReviewerLine";
import { type ReviewerState, useReviewer } from "@/app/_review/useReviewer";

/** A round hands fields to a named reviewer: asks for the name, then loads the page again. */
export function NameFirst({ serverReviewer }: { serverReviewer: ReviewerState }) {
  const reviewer = useReviewer(serverReviewer);
  return (
    <div className="space-y-2 rounded-lg border border-slate-200 bg-white p-4" data-testid="name-first">
      <p className="text-sm">A round hands each field to a named reviewer: say who you are to start.</p>
      <button
        type="button"
        className="min-h-9 rounded bg-slate-900 px-3 py-1.5 text-sm text-white"
        onClick={async () => {
          if (await reviewer.ask()) window.location.reload();
        }}
        data-testid="name-first-button"
      >
        Say who is reviewing
      </button>
      <ReviewerLine reviewer={reviewer} />
    </div>
  );
}
