"use client";

import { MAX_NOTE_LENGTH } from "@/lib/review/contract";
import type { ReviewNoteState } from "./useReviewing";

/** The note that goes with the next review: `n` opens it, Enter keeps it, Esc drops it. */
export function ReviewNote({ note }: { note: ReviewNoteState }) {
  const keys = (e: React.KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      e.currentTarget.blur();
      note.done(true);
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.currentTarget.blur();
      note.done(false);
    }
  };
  return (
    <div className="mt-2">
      {note.open || note.text ? (
        <label className="block text-xs text-slate-600">
          Note for your next review <span className="text-slate-400">(Enter keeps it, Esc drops it)</span>
          <textarea
            ref={note.box}
            value={note.text}
            onChange={(e) => note.setText(e.target.value)}
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
          onClick={note.openBox}
          // 24 px tall: on a phone the queue's label bar sits just below it.
          className="inline-flex min-h-6 items-center text-xs text-indigo-700 underline"
          data-testid="add-note"
        >
          add a note <kbd className="font-mono text-slate-500 no-underline">n</kbd>
        </button>
      )}
    </div>
  );
}
