"use client";

import { forwardRef, useState } from "react";
import { REVIEWER_STORAGE_KEY } from "@/lib/review/keys";

/** The reviewer's name as this browser remembers it (asked once). */
export function storedReviewer(): string {
  try {
    return localStorage.getItem(REVIEWER_STORAGE_KEY)?.trim() ?? "";
  } catch {
    return "";
  }
}

/** Asks for the reviewer's name once; Enter saves it. Every review carries it. */
export const ReviewerName = forwardRef<
  HTMLInputElement,
  {
    name: string;
    /** The name belongs to the login session: shown, never changed here. */
    locked?: boolean;
    onSave: (name: string) => void;
    onDone: () => void;
  }
>(function ReviewerName({ name, locked = false, onSave, onDone }, ref) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState("");
  if (!editing && name)
    return (
      <p className="text-xs text-slate-600" data-testid="reviewer">
        Reviewing as <span className="font-medium text-slate-900">{name}</span>{" "}
        {locked ? (
          <span className="text-slate-500">(your login's name)</span>
        ) : (
          <button
            type="button"
            className="text-indigo-700 underline"
            onClick={() => {
              setDraft(name);
              setEditing(true);
            }}
          >
            change
          </button>
        )}
      </p>
    );
  const save = () => {
    const v = draft.trim().slice(0, 100);
    if (!v) return;
    try {
      localStorage.setItem(REVIEWER_STORAGE_KEY, v);
    } catch {
      // Private mode: the name lasts for this page only.
    }
    onSave(v);
    setEditing(false);
    onDone();
  };
  return (
    <form
      className="rounded border border-indigo-200 bg-indigo-50 p-2 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
      data-testid="reviewer-form"
    >
      <label className="block text-xs font-medium text-indigo-900" htmlFor="reviewer-name">
        Your name (asked once; every review carries it)
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id="reviewer-name"
          ref={ref}
          value={draft}
          maxLength={100}
          autoComplete="name"
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Escape") (e.target as HTMLInputElement).blur();
          }}
          className="min-w-0 flex-1 rounded border border-slate-300 bg-white px-2 py-1"
          data-testid="reviewer-input"
        />
        <button type="submit" className="rounded bg-slate-900 px-3 py-1 text-white">
          Save
        </button>
      </div>
    </form>
  );
});
