"use client";

import type { ReviewedMeanwhile } from "@/lib/review/meanwhile";

/** Says who reviewed which field of this trace since the page was drawn, with a button to show it. */
export function ReviewedMeanwhileNotice({
  items,
  onShow,
}: {
  items: ReviewedMeanwhile[];
  onShow: () => void;
}) {
  if (items.length === 0) return null;
  return (
    <div
      role="status"
      aria-live="polite"
      className="mb-2 flex flex-wrap items-center justify-between gap-2 rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-950"
      data-testid="reviewed-meanwhile"
    >
      <ul>
        {items.map((m) => (
          <li key={m.field} data-field={m.field}>
            <span className="font-medium">{m.reviewer}</span>{" "}
            {m.label ? (
              <>
                labelled <span className="font-mono">{m.field}</span> {m.label}
              </>
            ) : (
              <>
                cleared <span className="font-mono">{m.field}</span>
              </>
            )}{" "}
            meanwhile.
          </li>
        ))}
      </ul>
      <button
        type="button"
        onClick={onShow}
        className="min-h-11 rounded border border-amber-400 bg-white px-3 text-sm hover:bg-amber-100"
        data-testid="show-meanwhile"
      >
        Show it
      </button>
    </div>
  );
}
