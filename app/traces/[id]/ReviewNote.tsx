"use client";

import type { RefObject } from "react";
import { MAX_NOTE_LENGTH } from "@/lib/review/contract";

/** The note that goes with the next review: `n` opens it, Enter keeps it, Esc drops it. */
export function ReviewNote({
  note,
  open,
  box,
  onChange,
  onOpen,
  onDone,
}: {
  note: string;
  open: boolean;
  box: RefObject<HTMLTextAreaElement | null>;
  onChange: (note: string) => void;
  onOpen: () => void;
  /** `kept`: Enter (keep the note for the next review); else Esc (drop it). */
  onDone: (kept: boolean) => void;
}) {
  const keys = (e: React.KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      e.currentTarget.blur();
      onDone(true);
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.currentTarget.blur();
      onDone(false);
    }
  };
  return (
    <div className="mt-2">
      {open || note ? (
        <label className="block text-xs text-slate-600">
          Note for your next review <span className="text-slate-400">(Enter keeps it, Esc drops it)</span>
          <textarea
            ref={box}
            value={note}
            onChange={(e) => onChange(e.target.value)}
            onKeyDown={keys}
            rows={2}
            maxLength={MAX_NOTE_LENGTH}
            className="mt-1 block w-full rounded border border-slate-300 px-2 py-1 text-sm text-slate-900"
            placeholder="why this label (e.g. asks for the region without saying timezone)"
            data-testid="review-note"
          />
        </label>
      ) : (
        <button
          type="button"
          onClick={onOpen}
          className="text-xs text-indigo-700 underline"
          data-testid="add-note"
        >
          add a note <kbd className="font-mono text-slate-500 no-underline">n</kbd>
        </button>
      )}
    </div>
  );
}
