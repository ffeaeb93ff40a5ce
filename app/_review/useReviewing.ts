"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { isTyping } from "@/app/_components/keyboard";
import type { Label } from "@/lib/probe/schema";
import type { ReviewConflictJson, ReviewItemInput } from "@/lib/review/contract";
import { reviewAction } from "@/lib/review/keys";
import {
  notUndoneMessage,
  overConflicts,
  savedMessage,
  undoItem,
  undoneMessage,
} from "@/lib/review/reviewing";
import { type ReviewActionResult, submitReviewAction } from "./actions";
import { keepStatus, keptStatus, peekUndo, popUndo, pushUndo } from "./undoStack";
import { markOwnReview } from "./useReviewedMeanwhile";
import type { Reviewer } from "./useReviewer";

/** A field as a page that reviews it knows it: its current review is what a new one names as its base. */
export interface ReviewingField {
  field: string;
  /** The field's current review (a clear included), or null when it has none. */
  current: { id: number; label: string | null } | null;
}

/** A submission that found other reviews on its fields: what it held, to save it over them. */
export interface PendingConflict {
  items: ReviewItemInput[];
  moveOn: boolean;
  note: string;
  conflicts: ReviewConflictJson[];
}

export interface ReviewingOptions {
  traceId: number;
  fields: ReviewingField[];
  /** The field focused first (the first field when absent). */
  focusField: string | null;
  reviewer: Reviewer;
  /** The page, showing this trace with `field` focused, that an undo of a review made here goes back to. */
  hrefOf: (field: string) => string;
  /**
   * A review was saved: the page goes on (`moveOn`) or stays. Returns whether it left for another
   * page, and words to add to what the status line says (the trace page: "this was the last trace
   * of the filter").
   */
  onSaved: (moveOn: boolean) => { left?: boolean; more?: string } | undefined;
  /** Whether the server draws the page anew in the review's answer (the queue: its next item). */
  redraw?: (moveOn: boolean) => boolean;
  /** A conflict was found (the trace page draws the panel with the other review). */
  onConflict?: () => void;
  /** Keys the page handles before the review keys (the queue's s and o); true when it took it. */
  pageKey?: (e: KeyboardEvent) => boolean;
}

const here = () => `${window.location.pathname}${window.location.search}`;

/**
 * The review loop of one trace as every page that reviews runs it (the trace page, the queue):
 * the focused field, the note for the next review, the one action, the tab's undo stack, a
 * conflict and its resubmission, the status line, and the keyboard of lib/review/keys.ts. The
 * page draws the fields (what it shows of ours and of others' reviews is its own: a blind round's
 * page would show neither) and says where to go after a review.
 */
export function useReviewing(o: ReviewingOptions) {
  const router = useRouter();
  const [focus, setFocus] = useState(() =>
    Math.max(
      0,
      o.fields.findIndex((f) => f.field === o.focusField),
    ),
  );
  const [noteText, setNoteText] = useState("");
  const [noteOpen, setNoteOpen] = useState(false);
  const noteBox = useRef<HTMLTextAreaElement>(null);
  const [status, setStatus] = useState("");
  const [conflict, setConflict] = useState<PendingConflict | null>(null);
  const [pending, setPending] = useState(false);
  const [ready, setReady] = useState(false);
  const busy = useRef(false);

  // What the tab's last review said stays said on the page that comes next.
  useEffect(() => setStatus(keptStatus()), []);
  /**
   * Says what a review did, on the next page too; here only when the page stays (a page that is
   * leaving says it where it lands, so what it shows meanwhile is never taken for the next trace).
   */
  const say = (s: string, leaving: boolean) => {
    keepStatus(s);
    if (!leaving) setStatus(s);
  };

  const openNote = () => {
    setNoteOpen(true);
    setTimeout(() => noteBox.current?.focus(), 0);
  };

  /**
   * One submission through the one action. The server's lookup knows the reviewer's name (a cookie
   * may have just been set); only when it answers that it knows none is the name asked, then the
   * same submission sent again.
   */
  async function send(
    target: number,
    items: ReviewItemInput[],
    note: string,
    refresh: boolean,
  ): Promise<ReviewActionResult | null> {
    if (busy.current) return null;
    busy.current = true;
    setPending(true);
    try {
      const request = { traceId: target, note, items, refresh };
      let res = await submitReviewAction(request);
      if (!res.ok && "needsReviewer" in res && res.needsReviewer && o.reviewer.source === "browser") {
        if (!(await o.reviewer.ask())) {
          setStatus("Not saved: say who is reviewing first.");
          return null;
        }
        res = await submitReviewAction(request);
      }
      if (res.ok) for (const x of res.reviews) markOwnReview(x.id);
      return res;
    } finally {
      busy.current = false;
      setPending(false);
    }
  }

  /** Reviews fields of this trace; on a conflict nothing is written and the other reviews are shown. */
  async function review(items: ReviewItemInput[], moveOn: boolean, note = noteText) {
    const res = await send(o.traceId, items, note, o.redraw?.(moveOn) ?? false);
    if (!res) return;
    if (res.ok) {
      for (const x of res.reviews)
        pushUndo({
          traceId: o.traceId,
          field: x.field,
          reviewId: x.id,
          label: x.label,
          href: o.hrefOf(x.field),
        });
      setNoteText("");
      setNoteOpen(false);
      setConflict(null);
      const after = o.onSaved(moveOn) ?? {};
      say(
        `${savedMessage(o.traceId, res.reviews, note !== "")}${after.more ? ` ${after.more}` : ""}`,
        Boolean(after.left),
      );
    } else if ("conflicts" in res) {
      setConflict({ items, moveOn, note, conflicts: res.conflicts });
      setStatus("");
      o.onConflict?.();
    } else setStatus(`Not saved: ${res.error}`);
  }

  /** Relabels (or, with null, clears) field `i`; `moveOn` goes on after, as the page says. */
  function relabel(i: number, label: Label | null, moveOn: boolean) {
    const f = o.fields[i];
    if (!f) return;
    if (label === null && !f.current?.label) return setStatus(`Nothing to clear: ${f.field} has no review.`);
    void review([{ field: f.field, label, base: f.current?.id ?? null }], moveOn);
  }

  /** Undoes field `i`'s current review, whoever wrote it (the label it replaced, as a new review). */
  function undoField(i: number) {
    const f = o.fields[i];
    if (f?.current) void review([{ field: f.field, label: null, base: f.current.id, undo: true }], false);
  }

  /** Undoes the tab's last review, on whatever page it was made, and goes back to it. */
  async function undoLast() {
    const e = peekUndo();
    if (!e) return setStatus("Nothing to undo: this tab has made no review yet.");
    const res = await send(e.traceId, [undoItem(e)], "", false);
    if (!res) return;
    if (!res.ok && !("conflicts" in res)) return setStatus(`Not undone: ${res.error}`);
    popUndo();
    const leaving = e.href !== here();
    say(
      res.ok
        ? undoneMessage(e, res.reviews[0]?.label ?? null)
        : notUndoneMessage(e, res.conflicts[0]?.current?.reviewer),
      leaving,
    );
    if (leaving) router.push(e.href);
    else router.refresh();
  }

  /** Saves the reviews a conflict stopped over the ones it showed. */
  function resubmit() {
    if (conflict)
      void review(overConflicts(conflict.items, conflict.conflicts), conflict.moveOn, conflict.note);
  }

  // The keyboard, attached once; it reads the latest state through the ref.
  const onKey = useRef<(e: KeyboardEvent) => void>(() => undefined);
  onKey.current = (e: KeyboardEvent) => {
    if (isTyping(e) || document.querySelector("dialog[open]")) return;
    if (o.pageKey?.(e)) return;
    const a = reviewAction(e, conflict !== null);
    if (!a) return;
    e.preventDefault();
    const n = o.fields.length;
    switch (a.kind) {
      case "label":
        return relabel(focus, a.label, !a.stay);
      case "clear":
        // A clear stays: what it leaves (the imported label, or none) is shown here.
        return relabel(focus, null, false);
      case "nextField":
        return setFocus((i) => (n ? (i + 1) % n : 0));
      case "prevField":
        return setFocus((i) => (n ? (i - 1 + n) % n : 0));
      case "note":
        return openNote();
      case "undo":
        return void undoLast();
      case "resubmit":
        return resubmit();
    }
  };
  useEffect(() => {
    const listener = (e: KeyboardEvent) => onKey.current(e);
    window.addEventListener("keydown", listener);
    setReady(true);
    return () => window.removeEventListener("keydown", listener);
  }, []);

  return {
    /** The panel's state as tests and people read it: keys attached, a review on its way. */
    panel: { "data-ready": ready ? "yes" : "no", "data-pending": pending ? "yes" : "no" },
    focus,
    setFocus,
    /** What a field row needs: whether it is focused, whether a review is on its way, and its actions. */
    row: (i: number) => ({
      focused: i === focus,
      pending,
      onFocus: () => setFocus(i),
      /** null clears; `moveOn` goes on after, as the page says. */
      onLabel: (label: Label | null, moveOn: boolean) => {
        setFocus(i);
        relabel(i, label, moveOn);
      },
    }),
    status,
    setStatus,
    pending,
    ready,
    conflict,
    keepTheirs: () => setConflict(null),
    resubmit,
    relabel,
    undoField,
    undoLast,
    note: {
      text: noteText,
      open: noteOpen,
      box: noteBox,
      setText: setNoteText,
      openBox: openNote,
      /** `kept`: Enter keeps the note for the next review; Esc drops it. */
      done: (kept: boolean) => {
        setNoteOpen(false);
        if (!kept) setNoteText("");
        else if (noteText.trim()) setStatus("Note kept: it goes with your next review.");
      },
    },
  };
}

export type Reviewing = ReturnType<typeof useReviewing>;
export type ReviewNoteState = Reviewing["note"];
