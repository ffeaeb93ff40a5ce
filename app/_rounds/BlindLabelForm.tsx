"use client";

import { useEffect, useRef, useState, useTransition } from "react";
import { isTyping } from "@/app/_components/keyboard";
import { ReviewerLine } from "@/app/_review/ReviewerLine";
import { type ReviewerState, useReviewer } from "@/app/_review/useReviewer";
import { LABELS, type Label } from "@/lib/probe/schema";
import { labelIndexOf, REVIEW_KEYS } from "@/lib/review/keys";
import { adjudicateAction, saveBlindAction } from "./actions";

/**
 * The label buttons of a blind review (or an adjudication): the six labels, keys 1-6 as on the
 * queue (lib/review/keys.ts), n for a note. The buttons carry `data-blind-label-button`: the only
 * place the blind page names a label (a test holds the rest of the page to that). A blind save
 * answers only ok; the page then loads `doneHref`, which shows the scorer's label and the others'.
 */
export function BlindLabelForm({
  roundId,
  traceId,
  field,
  serverReviewer,
  mode,
  doneHref,
}: {
  roundId: number;
  traceId: number;
  field: string;
  serverReviewer: ReviewerState;
  mode: "blind" | "adjudicate";
  doneHref?: string;
}) {
  const reviewer = useReviewer(serverReviewer, { askOnArrival: mode === "blind" });
  const [note, setNote] = useState("");
  const [error, setError] = useState("");
  const [pending, start] = useTransition();
  const noteRef = useRef<HTMLTextAreaElement>(null);

  const save = (label: Label) => {
    if (pending) return;
    start(async () => {
      setError("");
      let name = reviewer.name;
      if (!name) name = await reviewer.ask();
      if (!name) return;
      const input = { roundId, traceId, field, label, note };
      const r = mode === "blind" ? await saveBlindAction(input) : await adjudicateAction(input);
      if (!r.ok) {
        if (r.needsReviewer && (await reviewer.ask())) return save(label);
        setError(r.error);
        return;
      }
      if (doneHref) window.location.assign(doneHref);
    });
  };
  const saveRef = useRef(save);
  saveRef.current = save;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e)) return;
      const i = labelIndexOf(e);
      if (i !== null) {
        e.preventDefault();
        saveRef.current(LABELS[i]);
      } else if (e.key === REVIEW_KEYS.note) {
        e.preventDefault();
        noteRef.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <section
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      aria-label={mode === "blind" ? "Your label" : "Settled label"}
      data-testid={mode === "blind" ? "blind-form" : "adjudicate-form"}
    >
      <ReviewerLine reviewer={reviewer} />
      <div className="grid grid-cols-3 gap-2">
        {LABELS.map((label, i) => (
          <button
            key={label}
            type="button"
            disabled={pending}
            onClick={() => save(label)}
            data-blind-label-button={label}
            aria-keyshortcuts={String(i + 1)}
            className="min-h-11 rounded border border-slate-300 bg-white px-2 py-2 font-mono text-sm font-semibold text-slate-900 hover:bg-slate-50 focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-60"
          >
            <span className="mr-1 text-xs font-normal text-slate-500">{i + 1}</span>
            {label}
          </button>
        ))}
      </div>
      <label className="block text-sm">
        <span className="text-slate-600">
          Note <span className="text-xs text-slate-500">(n)</span>
        </span>
        <textarea
          ref={noteRef}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          rows={2}
          maxLength={2000}
          className="mt-1 block w-full rounded border border-slate-300 p-2 text-sm"
          data-testid="blind-note"
        />
      </label>
      <p className="text-xs text-slate-500">Keys 1 to 6 save a label; n writes a note first.</p>
      {pending ? (
        <p role="status" className="text-sm text-slate-600">
          Saving…
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="rounded bg-red-50 p-2 text-sm text-red-800" data-testid="blind-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
