"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { KeysHelp } from "@/app/_components/KeysHelp";
import { isTyping } from "@/app/_components/keyboard";
import { LabelChip } from "@/app/_components/LabelChip";
import { AddToSet } from "@/app/_fixtures/AddToSet";
import { ConflictNotice } from "@/app/_review/ConflictNotice";
import { ReviewedMeanwhileNotice } from "@/app/_review/ReviewedMeanwhile";
import { ReviewerLine } from "@/app/_review/ReviewerLine";
import { ReviewNote } from "@/app/_review/ReviewNote";
import { peekUndo } from "@/app/_review/undoStack";
import { useReviewedMeanwhile } from "@/app/_review/useReviewedMeanwhile";
import { type ReviewerState, useReviewer } from "@/app/_review/useReviewer";
import { useReviewing } from "@/app/_review/useReviewing";
import { LABELS, type Label } from "@/lib/probe/schema";
import type { ReviewJson } from "@/lib/review/contract";
import { keyOfLabel, QUEUE_REVIEW_KEY_HELP, queueAction, REVIEW_KEYS } from "@/lib/review/keys";
import { QUEUE_RULE_TEXT, type QueueRule } from "@/lib/review/queueRules";

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

const here = () => `${location.pathname}${location.search}`;

/**
 * The queue item's review controls: the review loop of app/_review (the keyboard of
 * lib/review/keys.ts and the same as buttons). A review goes through the one action and the
 * server answers with the next item; an undo goes back to the item it undid.
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
  // Every key here reviews: the name is asked as the queue opens (once; the browser remembers it).
  const reviewer = useReviewer(serverReviewer, { askOnArrival: true });

  /** The queue in this scope showing one trace, with one field focused. */
  const itemUrl = (field: string) => {
    const [path, query = ""] = itemHref.split("?");
    const params = new URLSearchParams(query);
    params.set("trace", String(traceId));
    params.set("field", field);
    return `${path}?${params}`;
  };

  const r = useReviewing({
    traceId,
    fields,
    focusField: focus,
    reviewer,
    hrefOf: itemUrl,
    // Going on, the server draws the next item in the review's answer; staying, this one anew.
    redraw: (moveOn) => continueHref === null || !moveOn,
    onSaved: (moveOn) => {
      const f = fields[r.focus];
      if (!moveOn && f && here() !== itemUrl(f.field)) router.replace(itemUrl(f.field));
      else if (moveOn && continueHref) {
        router.replace(continueHref);
        return { left: true };
      }
      return undefined;
    },
    pageKey: (e) => {
      const q = queueAction(e);
      if (q) {
        e.preventDefault();
        router.push(q.kind === "skip" ? skipHref : traceHref);
      }
      return q !== null;
    },
  });
  // Someone else's review of a field shown here, found by a light poll.
  const meanwhile = useReviewedMeanwhile(traceId, fields);
  const f = fields[r.focus];

  // `?` opens and closes the list of keys (the review keys are the hook's).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "?" || isTyping(e)) return;
      e.preventDefault();
      const d = dialog.current;
      if (d && !d.open) d.showModal();
      else d?.close();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <section
      className="space-y-3 rounded-lg border border-indigo-200 bg-white p-3 shadow-sm"
      data-testid="queue-panel"
      {...r.panel}
      data-focus={f?.field}
      aria-busy={r.pending}
    >
      <ReviewerLine reviewer={reviewer} />
      <ul className="space-y-2" aria-label="Fields of this trace">
        {fields.map((x, i) => (
          <FieldRow key={x.field} f={x} {...r.row(i)} />
        ))}
      </ul>
      <ReviewNote note={r.note} />
      <ReviewedMeanwhileNotice
        items={meanwhile}
        onShow={() => {
          // This item drawn anew with the other review (the queue itself might have moved on).
          const item = itemUrl(f?.field ?? focus);
          if (here() === item) router.refresh();
          else router.replace(item);
        }}
      />
      <ConflictNotice r={r} />
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
          onClick={() => void r.undoLast()}
          className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-50"
          data-testid="undo-button"
        >
          undo <kbd className="font-mono text-slate-500">{REVIEW_KEYS.undo}</kbd>
        </button>
        <KeysHelp
          ref={dialog}
          keys={QUEUE_REVIEW_KEY_HELP}
          ready={r.ready}
          onOpen={() => dialog.current?.showModal()}
        />
      </div>
      <AddToSet
        what="the field you labelled last"
        reviewer={reviewer.name ?? ""}
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
        {r.status}
      </p>
    </section>
  );
}

/** One field of the item: ours, the human label, the rules that queue it, and (focused) its label bar. */
function FieldRow({
  f,
  focused,
  pending,
  onFocus,
  onLabel,
}: {
  f: PanelField;
  focused: boolean;
  pending: boolean;
  onFocus: () => void;
  /** null clears (and stays on this item, as on the trace page); a label goes on. */
  onLabel: (l: Label | null, moveOn: boolean) => void;
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
              disabled={pending}
              onClick={() => onLabel(l, true)}
              className="min-h-11 rounded border border-slate-300 bg-white px-1.5 font-mono text-xs hover:bg-slate-50 disabled:opacity-50 lg:min-h-7"
              data-testid={`label-${l}`}
            >
              <kbd className="mr-1 text-slate-500">{keyOfLabel(l)}</kbd>
              {l}
            </button>
          ))}
          <button
            type="button"
            disabled={pending || !f.current?.label}
            onClick={() => onLabel(null, false)}
            className="min-h-11 rounded border border-slate-300 bg-white px-1.5 text-xs hover:bg-slate-50 disabled:opacity-40 lg:min-h-7"
          >
            <kbd className="mr-1 font-mono text-slate-500">{REVIEW_KEYS.clear}</kbd>clear
          </button>
        </fieldset>
      ) : null}
    </li>
  );
}
