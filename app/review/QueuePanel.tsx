"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { KeysHelp } from "@/app/_components/KeysHelp";
import { isTyping } from "@/app/_components/keyboard";
import { LabelChip } from "@/app/_components/LabelChip";
import { AddToSet } from "@/app/_fixtures/AddToSet";
import { setReviewerAction, submitReviewAction } from "@/app/_review/actions";
import { ReviewedMeanwhileNotice } from "@/app/_review/ReviewedMeanwhile";
import { markOwnReview, useReviewedMeanwhile } from "@/app/_review/useReviewedMeanwhile";
import type { ReviewerState } from "@/app/_review/useReviewer";
import { LABELS, type Label } from "@/lib/probe/schema";
import type { ReviewJson } from "@/lib/review/contract";
import {
  FIXTURE_KEY_HELP,
  keyOfLabel,
  QUEUE_KEY_HELP,
  queueAction,
  REVIEW_KEYS,
  reviewAction,
  reviewKeyHelp,
} from "@/lib/review/keys";
import { QUEUE_RULE_TEXT, type QueueRule } from "@/lib/review/queueRules";
import { ReviewerName, storedReviewer } from "./ReviewerName";
import { keepStatus, keptStatus, peekUndo, popUndo, pushUndo } from "./undoStack";

export interface PanelField {
  field: string;
  ours: Label;
  /** Every queue rule that holds for the field (empty: no rule queues it). */
  rules: QueueRule[];
  /** Its current review, when it has one (a clear has label null). */
  current: ReviewJson | null;
  /** The current human label (review, else imported) and where it comes from. */
  human: { label: string; source: "review" | "imported" } | null;
}

/** The name given here becomes the server's (its cookie, which every review reads); a refusal is said. */
async function giveName(name: string, onSaved: (name: string) => void, say: (s: string) => void) {
  const r = await setReviewerAction({ name });
  if (r.ok) onSaved(r.name);
  else say(`Name not saved: ${r.error}`);
}

const HELP = [
  ...reviewKeyHelp("the queue's next item"),
  ...QUEUE_KEY_HELP,
  ...FIXTURE_KEY_HELP.map((k) => ({
    ...k,
    does: k.does.replace("the field", "the field you labelled last"),
  })),
  { key: "?", does: "show this list" },
  { key: "Esc", does: "close this list" },
];

/**
 * The queue item's review controls: the keyboard (lib/review/keys.ts) and the same as buttons.
 * A review goes through the one write path and the server answers with the next item; an undo
 * goes back to the item it undid.
 */
export function QueuePanel({
  traceId,
  fields,
  focus,
  skipHref,
  traceHref,
  itemHref,
  continueHref,
  serverReviewer,
}: {
  traceId: number;
  fields: PanelField[];
  focus: string;
  skipHref: string;
  traceHref: string;
  /** The queue in this scope: undo goes there with `trace` and `field` set to the item it undid. */
  itemHref: string;
  /** Where to go after a review when this page shows a chosen trace; null: the queue moves on in place. */
  continueHref: string | null;
  /** The reviewer the server's lookup names (a login session's name cannot be changed here). */
  serverReviewer: ReviewerState;
}) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const noteInput = useRef<HTMLInputElement>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const [at, setAt] = useState(
    Math.max(
      0,
      fields.findIndex((f) => f.field === focus),
    ),
  );
  const [reviewer, setReviewer] = useState(serverReviewer.name ?? "");
  const [note, setNote] = useState("");
  const [noteOpen, setNoteOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [status, setStatus] = useState("");
  const [conflict, setConflict] = useState<{
    field: string;
    label: Label | null;
    stay: boolean;
    current: ReviewJson | null;
  } | null>(null);
  const bases = useRef(new Map<string, number | null>());
  const [ready, setReady] = useState(false);
  // Someone else's review of a field shown here, found by a light poll.
  const meanwhile = useReviewedMeanwhile(
    traceId,
    Object.fromEntries(fields.map((x) => [x.field, x.current?.id ?? null])),
  );

  useEffect(() => {
    setStatus(keptStatus());
    if (serverReviewer.name) return;
    const name = storedReviewer();
    // Asked once: the first visit starts in the name field; a name this browser gave before
    // goes back to the server's cookie, which every review reads.
    if (!name || serverReviewer.source === "session") setTimeout(() => nameInput.current?.focus(), 0);
    else void giveName(name, setReviewer, setStatus);
  }, [serverReviewer.name, serverReviewer.source]);
  // What was saved or undone stays said when the page moves on to the next item.
  const say = (s: string) => {
    keepStatus(s);
    setStatus(s);
  };

  const f = fields[at];

  /** The queue in this scope showing one trace, with one field focused. */
  const itemUrl = (trace: number, field: string) => {
    const [path, query = ""] = itemHref.split("?");
    const params = new URLSearchParams(query);
    params.set("trace", String(trace));
    params.set("field", field);
    return `${path}?${params}`;
  };

  async function submit(field: PanelField, label: Label | null, stay = false) {
    if (!reviewer) {
      setStatus("Enter your name first: every review carries it.");
      nameInput.current?.focus();
      return;
    }
    if (pending) return;
    setPending(true);
    setConflict(null);
    const base = bases.current.has(field.field)
      ? (bases.current.get(field.field) ?? null)
      : (field.current?.id ?? null);
    const res = await submitReviewAction({
      traceId,
      note,
      items: [{ field: field.field, label, base }],
      refresh: continueHref === null || stay,
    });
    setPending(false);
    if (res.ok) {
      const review = res.reviews[0];
      markOwnReview(review.id);
      pushUndo({ traceId, field: field.field, reviewId: review.id, label });
      setNote("");
      say(`Saved: ${field.field} ${label ?? "cleared"} on trace #${traceId} (${REVIEW_KEYS.undo} undoes)`);
      if (stay) {
        const here = itemUrl(traceId, field.field);
        if (`${location.pathname}${location.search}` !== here) router.replace(here);
      } else if (continueHref) router.replace(continueHref);
    } else if ("conflicts" in res) {
      const current = res.conflicts[0]?.current ?? null;
      bases.current.set(field.field, current?.id ?? null);
      setConflict({ field: field.field, label, stay, current });
      setStatus("Nothing was written: someone reviewed this field meanwhile.");
    } else setStatus(`Not saved: ${res.error}`);
  }

  async function undo() {
    const top = peekUndo();
    if (!top) return setStatus("Nothing to undo in this tab.");
    if (!reviewer) return setStatus("Enter your name first: every review carries it.");
    setPending(true);
    const res = await submitReviewAction({
      traceId: top.traceId,
      note: "",
      items: [{ field: top.field, label: null, base: top.reviewId, undo: true }],
    });
    setPending(false);
    popUndo();
    if (res.ok) {
      markOwnReview(res.reviews[0].id);
      say(`Undid ${top.field} ${top.label ?? "cleared"} on trace #${top.traceId}`);
      router.push(itemUrl(top.traceId, top.field));
    } else if ("conflicts" in res)
      setStatus(
        `Not undone: ${res.conflicts[0]?.current?.reviewer ?? "someone"} reviewed ${top.field} of trace #${top.traceId} since.`,
      );
    else setStatus(`Not undone: ${res.error}`);
  }

  const handler = useRef<(e: KeyboardEvent) => void>(() => undefined);
  handler.current = (e: KeyboardEvent) => {
    if (isTyping(e)) return;
    if (e.key === "?") {
      e.preventDefault();
      const d = dialog.current;
      if (d && !d.open) d.showModal();
      else d?.close();
      return;
    }
    if (dialog.current?.open) return;
    const q = queueAction(e);
    if (q) {
      e.preventDefault();
      router.push(q.kind === "skip" ? skipHref : traceHref);
      return;
    }
    const a = reviewAction(e, conflict !== null);
    if (!a || !f) return;
    e.preventDefault();
    switch (a.kind) {
      case "label":
        return void submit(f, a.label, a.stay);
      case "resubmit": {
        const c = conflict;
        const target = c ? fields.find((x) => x.field === c.field) : undefined;
        if (c && target) void submit(target, c.label, c.stay);
        return;
      }
      case "clear":
        if (!f.current?.label) return setStatus(`${f.field} has no review to clear.`);
        // A clear stays on this item, as on the trace page.
        return void submit(f, null, true);
      case "nextField":
        return setAt((at + 1) % fields.length);
      case "prevField":
        return setAt((at - 1 + fields.length) % fields.length);
      case "note":
        setNoteOpen(true);
        return void setTimeout(() => noteInput.current?.focus(), 0);
      case "undo":
        return void undo();
    }
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => handler.current(e);
    window.addEventListener("keydown", onKey);
    setReady(true);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <section
      className="space-y-3 rounded-lg border border-indigo-200 bg-white p-3 shadow-sm"
      data-testid="queue-panel"
      data-ready={ready ? "yes" : "no"}
      data-pending={pending ? "yes" : "no"}
      data-focus={f?.field}
      aria-busy={pending}
    >
      <ReviewerName
        ref={nameInput}
        name={reviewer}
        locked={serverReviewer.source === "session"}
        onSave={(name) => void giveName(name, setReviewer, setStatus)}
        onDone={() => nameInput.current?.blur()}
      />
      <ul className="space-y-2" aria-label="Fields of this trace">
        {fields.map((x, i) => (
          <FieldRow
            key={x.field}
            f={x}
            focused={i === at}
            disabled={pending}
            onFocus={() => setAt(i)}
            onLabel={(l) => void submit(x, l, l === null)}
          />
        ))}
      </ul>
      {noteOpen || note ? (
        <div className="text-sm">
          <label htmlFor="review-note" className="block text-xs font-medium text-slate-600">
            Note for your next review (Enter keeps it, Esc drops it)
          </label>
          <input
            id="review-note"
            ref={noteInput}
            value={note}
            maxLength={2000}
            onChange={(e) => setNote(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" || e.key === "Escape") {
                e.preventDefault();
                // Enter keeps the note for the next review; Esc drops it.
                if (e.key === "Escape") setNote("");
                setNoteOpen(false);
                (e.target as HTMLInputElement).blur();
              }
            }}
            className="mt-1 w-full rounded border border-slate-300 px-2 py-1"
            data-testid="note-input"
          />
        </div>
      ) : null}
      <ReviewedMeanwhileNotice
        items={meanwhile}
        onShow={() => {
          // This item drawn anew with the other review (the queue itself might have moved on).
          const here = itemUrl(traceId, f?.field ?? focus);
          if (`${location.pathname}${location.search}` === here) router.refresh();
          else router.replace(here);
        }}
      />
      {conflict ? <Conflict c={conflict} /> : null}
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <Link
          href={skipHref}
          className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-50"
          data-testid="skip-link"
        >
          skip <kbd className="font-mono text-slate-500">s</kbd>
        </Link>
        <Link href={traceHref} className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-50">
          whole trace <kbd className="font-mono text-slate-500">o</kbd>
        </Link>
        <button
          type="button"
          onClick={() => void undo()}
          className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-50"
          data-testid="undo-button"
        >
          undo <kbd className="font-mono text-slate-500">z</kbd>
        </button>
        <KeysHelp ref={dialog} keys={HELP} ready={ready} onOpen={() => dialog.current?.showModal()} />
      </div>
      <AddToSet
        what="the field you labelled last"
        reviewer={reviewer}
        target={() => {
          const top = peekUndo();
          return top ? { traceId: top.traceId, field: top.field } : null;
        }}
      />
      <p
        role="status"
        aria-live="polite"
        className="min-h-4 text-xs text-slate-700"
        data-testid="queue-status"
      >
        {status}
      </p>
    </section>
  );
}

function FieldRow({
  f,
  focused,
  disabled,
  onFocus,
  onLabel,
}: {
  f: PanelField;
  focused: boolean;
  disabled: boolean;
  onFocus: () => void;
  onLabel: (l: Label | null) => void;
}) {
  return (
    <li
      className={`rounded border p-2 ${focused ? "border-indigo-500 bg-indigo-50/60 ring-1 ring-indigo-500" : "border-slate-200"}`}
      data-testid="queue-field"
      data-field={f.field}
      data-focused={focused ? "yes" : "no"}
      aria-current={focused ? "true" : undefined}
    >
      <button
        type="button"
        onClick={onFocus}
        className="flex min-h-6 w-full flex-wrap items-center gap-2 text-left text-sm"
      >
        <span className="font-mono font-semibold [overflow-wrap:anywhere]">{f.field}</span>
        <span className="text-xs text-slate-500">ours</span>
        <LabelChip label={f.ours} testId="queue-ours" />
        <span className="text-xs text-slate-500">human</span>
        {f.human ? (
          <span
            className="inline-flex items-center gap-1"
            data-testid="queue-human"
            data-label={f.human.label}
          >
            <LabelChip label={f.human.label} />
            <span className="text-[11px] text-slate-500">
              {f.human.source === "review" ? `by ${f.current?.reviewer ?? "a reviewer"}` : "imported"}
            </span>
          </span>
        ) : (
          <span className="text-xs text-slate-400" data-testid="queue-human">
            none yet
          </span>
        )}
      </button>
      {f.rules.length > 0 ? (
        <p className="mt-1 text-xs text-amber-900" data-testid="queue-rules">
          {f.current?.label ? "queued by " : "waiting: "}
          {f.rules.map((r) => QUEUE_RULE_TEXT[r].title).join("; ")}
        </p>
      ) : null}
      {focused ? (
        // On a phone the buttons stay in a bar at the bottom of the screen, over the response and
        // its evidence (which come after the panel); beside a mouse they sit under the field.
        <fieldset
          className="mt-2 grid grid-cols-4 gap-1 max-lg:fixed max-lg:inset-x-0 max-lg:bottom-0 max-lg:z-20 max-lg:m-0 max-lg:border-t max-lg:border-slate-300 max-lg:bg-white/95 max-lg:p-2 max-lg:shadow-[0_-2px_6px_rgb(15_23_42/0.12)] lg:flex lg:flex-wrap"
          data-testid="label-bar"
        >
          <legend className="sr-only">Label {f.field}</legend>
          <p className="col-span-4 truncate text-xs text-slate-600 lg:hidden" aria-hidden="true">
            Label <span className="font-mono font-semibold text-slate-900">{f.field}</span>
          </p>
          {LABELS.map((l) => (
            <button
              key={l}
              type="button"
              disabled={disabled}
              onClick={() => onLabel(l)}
              className="min-h-11 rounded border border-slate-300 bg-white px-1.5 font-mono text-xs hover:bg-slate-50 disabled:opacity-50 lg:min-h-7"
              data-testid={`label-${l}`}
            >
              <kbd className="mr-1 text-slate-500">{keyOfLabel(l)}</kbd>
              {l}
            </button>
          ))}
          <button
            type="button"
            disabled={disabled || !f.current?.label}
            onClick={() => onLabel(null)}
            className="min-h-11 rounded border border-slate-300 bg-white px-1.5 text-xs hover:bg-slate-50 disabled:opacity-40 lg:min-h-7"
          >
            <kbd className="mr-1 font-mono text-slate-500">{REVIEW_KEYS.clear}</kbd>clear
          </button>
        </fieldset>
      ) : null}
    </li>
  );
}

function Conflict({ c }: { c: { field: string; current: ReviewJson | null } }) {
  const again = (
    <>
      {" "}
      Press <kbd className="font-mono">Enter</kbd> to save yours over it.
    </>
  );
  return (
    <div
      role="alert"
      className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-950"
      data-testid="conflict"
    >
      {c.current ? (
        <>
          <span className="font-medium">{c.current.reviewer}</span> labelled{" "}
          <span className="font-mono">{c.field}</span> {c.current.label ?? "(cleared)"} at{" "}
          <time dateTime={c.current.created_at}>{c.current.created_at.replace("T", " ").slice(0, 19)}</time>
          {c.current.note ? <>: “{c.current.note}”</> : null}.{again}
        </>
      ) : (
        <>The field's review changed meanwhile.{again}</>
      )}
    </div>
  );
}
