"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { isTyping } from "@/app/_components/keyboard";
import { AddToSet } from "@/app/_fixtures/AddToSet";
import { submitReviewAction } from "@/app/_review/actions";
import { ReviewedMeanwhileNotice } from "@/app/_review/ReviewedMeanwhile";
import { markOwnReview, useReviewedMeanwhile } from "@/app/_review/useReviewedMeanwhile";
import { type ReviewerState, useReviewer } from "@/app/_review/useReviewer";
import type { Label } from "@/lib/probe/schema";
import type { ReviewItemInput } from "@/lib/review/contract";
import { LABEL_KEYS } from "@/lib/review/humanLabel";
import { ConflictNotice, type PendingConflict } from "./ConflictNotice";
import { ReviewFieldRow } from "./ReviewFieldRow";
import { ReviewNote } from "./ReviewNote";
import { labelIndexOf } from "./reviewKeys";
import type { ReviewFieldView } from "./reviewView";
import { peekUndo, popUndo, pushUndo, setFlash, takeFlash } from "./undoStack";

type Item = ReviewItemInput;

const labelText = (label: string | null) => label ?? "cleared";
const here = () => `${window.location.pathname}${window.location.search}`;

/**
 * Relabel the trace's probed fields: 1-6 for the focused field, f to move, n for a note, x to
 * clear, z to undo, and the same with the mouse. After a review the page goes on to the next
 * trace of the filter it came from. Every review names the review it saw; a conflict shows the
 * other review and lets the reviewer save theirs over it; a review someone else makes meanwhile is
 * said as it happens (a poll every few seconds).
 */
export function ReviewPanel({
  traceId,
  fields,
  focusField,
  nextHref,
  reviewer: server,
}: {
  traceId: number;
  fields: ReviewFieldView[];
  focusField: string | null;
  nextHref: string | null;
  reviewer: ReviewerState;
}) {
  const router = useRouter();
  const reviewer = useReviewer(server);
  const [focus, setFocus] = useState(() =>
    Math.max(
      0,
      fields.findIndex((f) => f.field === focusField),
    ),
  );
  const [note, setNote] = useState("");
  const [noteOpen, setNoteOpen] = useState(false);
  const [status, setStatus] = useState("");
  const [conflict, setConflict] = useState<PendingConflict | null>(null);
  const [pending, setPending] = useState(false);
  const [ready, setReady] = useState(false);
  const noteBox = useRef<HTMLTextAreaElement>(null);
  const busy = useRef(false);
  // Someone else's review of a field shown here, found by a light poll.
  const meanwhile = useReviewedMeanwhile(
    traceId,
    Object.fromEntries(fields.map((f) => [f.field, f.current?.id ?? null])),
  );

  useEffect(() => {
    const m = takeFlash();
    if (m) setStatus(m);
  }, []);

  const submit = useCallback(
    async (target: number, items: Item[], opts: { moveOn: boolean; undoHref?: string; note?: string }) => {
      if (busy.current) return;
      busy.current = true;
      setPending(true);
      try {
        let name = reviewer.name;
        if (!name && reviewer.source === "browser") name = await reviewer.ask();
        if (!name) {
          setStatus("Not saved: say who is reviewing first.");
          return;
        }
        const noteNow = opts.undoHref ? "" : (opts.note ?? note);
        let r = await submitReviewAction({ traceId: target, note: noteNow, items });
        if (!r.ok && "needsReviewer" in r && reviewer.source === "browser") {
          if (!(await reviewer.ask())) return setStatus("Not saved: say who is reviewing first.");
          r = await submitReviewAction({ traceId: target, note: noteNow, items });
        }
        if (r.ok) {
          for (const x of r.reviews) markOwnReview(x.id);
          const what = r.reviews.map((x) => `${x.field} ${labelText(x.label)}`).join(", ");
          if (opts.undoHref) {
            const msg = `Undone on #${target}: ${what}.`;
            if (target !== traceId) {
              setFlash(msg);
              router.push(opts.undoHref);
            } else {
              setStatus(msg);
              router.refresh();
            }
            return;
          }
          for (const x of r.reviews)
            pushUndo({ traceId: target, field: x.field, reviewId: x.id, label: x.label, href: here() });
          setNote("");
          setNoteOpen(false);
          setConflict(null);
          const msg = `Saved on #${target}: ${what}${noteNow ? " (with a note)" : ""}. z undoes it.`;
          if (opts.moveOn && nextHref) {
            setFlash(msg);
            router.push(nextHref);
          } else {
            setStatus(opts.moveOn ? `${msg} This was the last trace of the filter.` : msg);
            router.refresh();
          }
        } else if ("conflicts" in r) {
          if (opts.undoHref) {
            const who = r.conflicts.map((c) => c.current?.reviewer ?? "someone").join(", ");
            const msg = `Not undone: ${who} reviewed it since. Here it is.`;
            if (target !== traceId) {
              setFlash(msg);
              router.push(opts.undoHref);
            } else setStatus(msg);
            return;
          }
          setConflict({ items, moveOn: opts.moveOn, note: noteNow, conflicts: r.conflicts });
          setStatus("");
          router.refresh();
        } else setStatus(`Not saved: ${r.error}`);
      } finally {
        busy.current = false;
        setPending(false);
      }
    },
    [note, nextHref, reviewer, router, traceId],
  );

  const relabel = useCallback(
    (i: number, label: Label | null, moveOn: boolean) => {
      const f = fields[i];
      if (!f) return;
      if (label === null && !f.current?.label) {
        setStatus(`Nothing to clear: ${f.field} has no review.`);
        return;
      }
      void submit(traceId, [{ field: f.field, label, base: f.current?.id ?? null }], { moveOn });
    },
    [fields, submit, traceId],
  );

  const undoLast = useCallback(() => {
    const e = peekUndo();
    if (!e) {
      setStatus("Nothing to undo: this tab has made no review yet.");
      return;
    }
    popUndo();
    void submit(e.traceId, [{ field: e.field, label: null, base: e.reviewId, undo: true }], {
      moveOn: false,
      undoHref: e.href,
    });
  }, [submit]);

  const resubmit = useCallback(() => {
    if (!conflict) return;
    const bases = new Map(conflict.conflicts.map((c) => [c.field, c.current?.id ?? null]));
    const items = conflict.items.map((it) =>
      bases.has(it.field) ? { ...it, base: bases.get(it.field) ?? null } : it,
    );
    void submit(traceId, items, { moveOn: conflict.moveOn, note: conflict.note });
  }, [conflict, submit, traceId]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (document.querySelector("dialog[open]")) return;
      if (isTyping(e)) return;
      const n = labelIndexOf(e);
      if (n !== null) {
        e.preventDefault();
        return relabel(focus, LABEL_KEYS[n], !e.shiftKey);
      }
      switch (e.key) {
        case "f":
        case "F": {
          e.preventDefault();
          const d = e.key === "F" ? -1 : 1;
          setFocus((i) => (fields.length ? (i + d + fields.length) % fields.length : 0));
          return;
        }
        case "x":
          // A clear stays on this trace: what it leaves (the imported label, or none) is shown here.
          e.preventDefault();
          return relabel(focus, null, false);
        case "n":
          e.preventDefault();
          setNoteOpen(true);
          setTimeout(() => noteBox.current?.focus(), 0);
          return;
        case "z":
          e.preventDefault();
          return undoLast();
        case "Enter":
          if (conflict) {
            e.preventDefault();
            resubmit();
          }
          return;
        default:
          return;
      }
    };
    window.addEventListener("keydown", onKey);
    setReady(true);
    return () => window.removeEventListener("keydown", onKey);
  }, [conflict, fields.length, focus, relabel, resubmit, undoLast]);

  return (
    <section
      className="rounded-lg border border-indigo-200 bg-white p-4 shadow-sm"
      data-testid="review-panel"
      data-ready={ready ? "yes" : "no"}
      data-pending={pending ? "yes" : "no"}
      aria-label="Review"
    >
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-sm font-semibold tracking-wide text-slate-700 uppercase">Review</h2>
        <p className="text-xs text-slate-600" data-testid="reviewer">
          {reviewer.name ? (
            <>
              reviewing as <span className="font-semibold text-slate-900">{reviewer.name}</span>
              {reviewer.source === "browser" ? (
                <button
                  type="button"
                  className="ml-1 text-indigo-700 underline"
                  onClick={() => void reviewer.ask()}
                  data-testid="change-reviewer"
                >
                  change
                </button>
              ) : (
                " (your login)"
              )}
            </>
          ) : (
            <button
              type="button"
              className="text-indigo-700 underline"
              onClick={() => void reviewer.ask()}
              data-testid="change-reviewer"
            >
              say who is reviewing
            </button>
          )}
        </p>
      </div>
      {reviewer.dialog}
      <p
        role="status"
        aria-live="polite"
        className={status ? "mb-2 rounded bg-slate-50 px-2 py-1 text-sm text-slate-800" : "sr-only"}
        data-testid="review-status"
      >
        {status}
      </p>
      <ReviewedMeanwhileNotice items={meanwhile} onShow={() => router.refresh()} />
      {conflict ? (
        <ConflictNotice
          conflict={conflict}
          onResubmit={resubmit}
          onKeep={() => setConflict(null)}
          pending={pending}
        />
      ) : null}
      <ul className="divide-y divide-slate-100" data-testid="review-fields">
        {fields.map((f, i) => (
          <ReviewFieldRow
            key={f.field}
            f={f}
            focused={i === focus}
            pending={pending}
            onFocus={() => setFocus(i)}
            onLabel={(label, moveOn) => {
              setFocus(i);
              relabel(i, label, moveOn);
            }}
            onUndo={() =>
              void submit(
                traceId,
                [{ field: f.field, label: null, base: f.current?.id ?? null, undo: true }],
                {
                  moveOn: false,
                },
              )
            }
          />
        ))}
      </ul>
      <ReviewNote
        note={note}
        open={noteOpen}
        box={noteBox}
        onChange={setNote}
        onOpen={() => {
          setNoteOpen(true);
          setTimeout(() => noteBox.current?.focus(), 0);
        }}
        onDone={(kept) => {
          setNoteOpen(false);
          if (!kept) setNote("");
          else if (note.trim()) setStatus("Note kept: it goes with your next review.");
        }}
      />
      <AddToSet
        what="the focused field"
        target={() => (fields[focus] ? { traceId, field: fields[focus].field } : null)}
      />
      <p className="mt-2 text-[11px] text-slate-500">
        <kbd className="font-mono">1</kbd>–<kbd className="font-mono">6</kbd> relabel the focused field and go
        on · <kbd className="font-mono">f</kbd> next field · <kbd className="font-mono">x</kbd> clear ·{" "}
        <kbd className="font-mono">z</kbd> undo · <kbd className="font-mono">?</kbd> every key
      </p>
    </section>
  );
}
