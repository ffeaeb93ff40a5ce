"use client";

import { useEffect, useRef } from "react";
import { LabelChip } from "@/app/_components/LabelChip";
import { When } from "@/app/_components/When";
import type { Reviewing } from "./useReviewing";

/**
 * Another review landed on the field since this page showed it: nothing was saved. Shows that
 * review (who, label, when, note) beside the reviewer's own, and offers to save theirs over it
 * (Enter) or keep the other. The one conflict notice of every page that reviews.
 */
export function ConflictNotice({ r }: { r: Reviewing }) {
  return r.conflict ? <Notice key={r.conflict.conflicts.map((c) => c.current?.id).join()} r={r} /> : null;
}

function Notice({ r }: { r: Reviewing }) {
  const save = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    save.current?.focus();
    save.current?.scrollIntoView({ block: "center" });
  }, []);
  const conflict = r.conflict;
  if (!conflict) return null;
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
              {c.current ? (
                <>
                  <span className="font-semibold" data-testid="conflict-reviewer">
                    {c.current.reviewer}
                  </span>{" "}
                  {c.current.label ? "labelled" : "cleared"} <span className="font-mono">{c.field}</span>{" "}
                  {c.current.label ? <LabelChip label={c.current.label} /> : null}{" "}
                  <span className="text-amber-800">
                    <When iso={c.current.created_at} />
                  </span>
                  {c.current.note ? (
                    <span className="block pl-4 text-amber-900 italic">“{c.current.note}”</span>
                  ) : null}
                </>
              ) : (
                <>
                  <span className="font-mono">{c.field}</span>: the review you saw is gone (it has no review
                  now)
                </>
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
          disabled={r.pending}
          onClick={r.resubmit}
          className="rounded bg-amber-700 px-3 py-1 text-sm text-white disabled:opacity-60"
          data-testid="conflict-resubmit"
        >
          Save mine over it <kbd className="ml-1 font-mono text-xs opacity-80">Enter</kbd>
        </button>
        <button
          type="button"
          onClick={r.keepTheirs}
          className="rounded border border-amber-500 bg-white px-3 py-1 text-sm"
          data-testid="conflict-keep"
        >
          Keep theirs
        </button>
      </div>
    </div>
  );
}
