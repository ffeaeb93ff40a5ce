"use client";

import { LabelChip } from "@/app/_components/LabelChip";
import type { Label } from "@/lib/probe/schema";
import { LABEL_KEYS } from "@/lib/review/humanLabel";
import type { ReviewFieldView } from "./reviewView";

/** 44 px tall on a phone (a thumb's target), 28 px beside a mouse. */
const BUTTON = "min-h-11 rounded border px-2 text-xs sm:min-h-7 sm:px-1.5";

/** One probed field in the review panel: ours, the current human label, and the relabel buttons. */
export function ReviewFieldRow({
  f,
  focused,
  pending,
  onFocus,
  onLabel,
  onUndo,
}: {
  f: ReviewFieldView;
  focused: boolean;
  pending: boolean;
  onFocus: () => void;
  /** null clears; `moveOn` goes to the next trace after. */
  onLabel: (label: Label | null, moveOn: boolean) => void;
  onUndo: () => void;
}) {
  const reviewed = (l: string) => f.human?.source === "review" && f.human.label === l;
  return (
    <li
      className={`flex flex-col gap-2 py-2 sm:flex-row sm:items-center sm:justify-between ${focused ? "-mx-2 rounded bg-indigo-50 px-2 ring-1 ring-indigo-300" : ""}`}
      data-testid="review-field"
      data-field={f.field}
      data-focused={focused ? "yes" : "no"}
      data-human={f.human?.label ?? ""}
      data-review-id={f.current?.id ?? ""}
    >
      <button
        type="button"
        className="flex min-h-6 min-w-0 flex-wrap items-center gap-1.5 text-left text-sm"
        onClick={onFocus}
        aria-label={`focus ${f.field}`}
      >
        <span className="font-mono [overflow-wrap:anywhere]">{f.field}</span>
        <span className="text-xs text-slate-500">ours</span>
        <LabelChip label={f.ours} />
        <span aria-hidden="true" className="text-slate-400">
          →
        </span>
        <HumanNow f={f} />
      </button>
      <fieldset className="m-0 flex min-w-0 flex-wrap items-center gap-1 border-0 p-0">
        <legend className="sr-only">relabel {f.field}</legend>
        {LABEL_KEYS.map((l, n) => (
          <button
            key={l}
            type="button"
            disabled={pending}
            onClick={(e) => onLabel(l, !e.shiftKey)}
            aria-pressed={reviewed(l)}
            title={`${n + 1}: relabel ${f.field} ${l} and go to the next trace (Shift: stay)`}
            className={`${BUTTON} font-mono ${reviewed(l) ? "border-indigo-600 bg-indigo-600 text-white" : "border-slate-300 bg-white text-slate-800 hover:bg-slate-50"}`}
            data-testid={`relabel-${l}`}
          >
            <span className="text-[10px] opacity-70">{n + 1}</span> {l}
          </button>
        ))}
        <button
          type="button"
          disabled={pending || !f.current?.label}
          onClick={() => onLabel(null, false)}
          className={`${BUTTON} border-slate-300 bg-white text-slate-700 hover:bg-slate-50 disabled:opacity-40`}
          title="x: clear the review (back to the imported label, if any)"
          data-testid="clear-review"
        >
          clear
        </button>
        {f.current ? (
          <button
            type="button"
            disabled={pending}
            onClick={onUndo}
            className={`${BUTTON} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`}
            title="write back the label this field had before its current review"
            data-testid="undo-review"
          >
            undo
          </button>
        ) : null}
      </fieldset>
    </li>
  );
}

function HumanNow({ f }: { f: ReviewFieldView }) {
  if (!f.human)
    return (
      <span className="text-xs text-slate-400" data-testid="human-now">
        no human label
      </span>
    );
  const differs = f.human.label !== f.ours;
  return (
    <span
      className="inline-flex flex-wrap items-center gap-1"
      data-testid="human-now"
      data-source={f.human.source}
    >
      <LabelChip label={f.human.label} />
      <span className={`text-[11px] ${differs ? "font-semibold text-red-700" : "text-emerald-700"}`}>
        {differs ? "≠ ours" : "✓ ours"}
      </span>
      <span className="text-[11px] text-slate-500">
        {f.human.source === "review" ? `by ${f.current?.reviewer}` : "imported"}
      </span>
    </span>
  );
}
