"use client";

import { useEffect, useRef } from "react";
import { LabelChip } from "@/app/_components/LabelChip";
import type { ReviewItemInput, ReviewJson } from "@/lib/review/contract";
import { when } from "./when";

export interface PendingConflict {
  items: ReviewItemInput[];
  moveOn: boolean;
  note: string;
  conflicts: { field: string; current: ReviewJson | null }[];
}

/**
 * Another review landed on the field since this page showed it: nothing was saved. Shows that
 * review (who, label, when, note) and offers to save ours over it (Enter) or keep theirs.
 */
export function ConflictNotice({
  conflict,
  onResubmit,
  onKeep,
  pending,
}: {
  conflict: PendingConflict;
  onResubmit: () => void;
  onKeep: () => void;
  pending: boolean;
}) {
  const save = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    save.current?.focus();
    save.current?.scrollIntoView({ block: "center" });
  }, []);
  const mine = new Map(conflict.items.map((i) => [i.field, i]));
  return (
    <div
      role="alert"
      className="mb-3 rounded border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950"
      data-testid="review-conflict"
    >
      <p className="font-semibold">Not saved: someone reviewed this since you opened it.</p>
      <ul className="mt-2 space-y-1.5">
        {conflict.conflicts.map((c) => {
          const yours = mine.get(c.field);
          return (
            <li key={c.field} data-testid="conflict-field" data-field={c.field}>
              <span className="font-mono">{c.field}</span>:{" "}
              {c.current ? (
                <>
                  <span className="font-semibold" data-testid="conflict-reviewer">
                    {c.current.reviewer}
                  </span>{" "}
                  {c.current.label ? (
                    <>
                      relabeled it <LabelChip label={c.current.label} />
                    </>
                  ) : (
                    "cleared its review"
                  )}{" "}
                  <span className="text-amber-800">{when(c.current.created_at)}</span>
                  {c.current.note ? (
                    <span className="block pl-4 text-amber-900 italic">“{c.current.note}”</span>
                  ) : null}
                </>
              ) : (
                "the review you saw is gone (it has no review now)"
              )}
              {yours ? (
                <span className="block pl-4 text-amber-900">
                  yours: {yours.undo ? "undo" : yours.label ? <LabelChip label={yours.label} /> : "clear"}
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          ref={save}
          type="button"
          disabled={pending}
          onClick={onResubmit}
          className="rounded bg-amber-700 px-3 py-1 text-sm text-white disabled:opacity-60"
          data-testid="conflict-resubmit"
        >
          Save mine over it <kbd className="ml-1 font-mono text-xs opacity-80">Enter</kbd>
        </button>
        <button
          type="button"
          onClick={onKeep}
          className="rounded border border-amber-500 bg-white px-3 py-1 text-sm"
          data-testid="conflict-keep"
        >
          Keep theirs
        </button>
      </div>
    </div>
  );
}
