"use client";

import type { Reviewer } from "./useReviewer";

/**
 * Who the reviews of this page are written by, and the way to change it: the same line on every
 * page that reviews. A login session's name is shown, never changed here.
 */
export function ReviewerLine({ reviewer }: { reviewer: Reviewer }) {
  const button = "text-indigo-700 underline";
  return (
    <>
      <p className="text-xs text-slate-600" data-testid="reviewer">
        {reviewer.name ? (
          <>
            Reviewing as <span className="font-semibold text-slate-900">{reviewer.name}</span>{" "}
            {reviewer.source === "browser" ? (
              <button
                type="button"
                className={button}
                onClick={() => void reviewer.ask()}
                data-testid="change-reviewer"
              >
                change
              </button>
            ) : (
              <span className="text-slate-500">(your login's name)</span>
            )}
          </>
        ) : (
          <button
            type="button"
            className={button}
            onClick={() => void reviewer.ask()}
            data-testid="change-reviewer"
          >
            say who is reviewing
          </button>
        )}
      </p>
      {reviewer.dialog}
    </>
  );
}
