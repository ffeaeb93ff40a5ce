"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { ConfirmDialog, countFirst } from "@/app/_components/ConfirmDialog";
import { LabelChip } from "@/app/_components/LabelChip";
import { ProgressBar } from "@/app/_components/ProgressBar";
import { useBackgroundJob } from "@/app/_components/useBackgroundJob";
import {
  bulkStatusAction,
  cancelBulkAction,
  countBulkAction,
  startBulkAction,
} from "@/app/_review/bulkActions";
import type { BulkJobView } from "@/app/_review/bulkView";
import { type ReviewerState, useReviewer } from "@/app/_review/useReviewer";
import { LABEL_KEYS } from "@/lib/review/humanLabel";

const n = (x: number) => x.toLocaleString("en-US");
const CLEAR = "-";

interface Mark {
  total: number;
  seenReviewId: number;
  lastTraceId: number;
}

/**
 * Bulk relabel of the run page's current filter: pick a label (or clear), count, confirm the
 * count, then follow the progress of the background job (written in short batches; it resumes
 * after a reload or a restart). Fields someone reviews meanwhile are skipped and listed.
 */
export function BulkRelabel({
  run,
  query,
  field,
  filterText,
  reviewer: server,
  running,
}: {
  run: string;
  query: string;
  field: string;
  filterText: string;
  reviewer: ReviewerState;
  running: BulkJobView | null;
}) {
  const router = useRouter();
  const reviewer = useReviewer(server);
  const dialog = useRef<HTMLDialogElement>(null);
  const [label, setLabel] = useState<string>("ASK");
  const [note, setNote] = useState("");
  const [mark, setMark] = useState<Mark | null>(null);
  const [busy, setBusy] = useState<"" | "counting" | "acting">("");
  const [error, setError] = useState("");
  // When it ends or is stopped, the rows show the new reviews.
  const { job, setJob, cancel } = useBackgroundJob(
    running,
    { status: bulkStatusAction, cancel: cancelBulkAction },
    () => router.refresh(),
  );

  const chosen = label === CLEAR ? null : label;
  const scope = { run, query, field, label: chosen };

  const open = () => {
    setMark(null);
    setError("");
    dialog.current?.showModal();
  };

  const count = async () => {
    setBusy("counting");
    setError("");
    const r = await countBulkAction(scope);
    setBusy("");
    if (r.ok) setMark({ total: r.total, seenReviewId: r.seenReviewId, lastTraceId: r.lastTraceId });
    else setError(r.error);
  };

  const start = async () => {
    if (!mark) return;
    let name = reviewer.name;
    if (!name && reviewer.source === "browser") name = await reviewer.ask();
    if (!name) return setError("Say who is reviewing first.");
    setBusy("acting");
    const r = await startBulkAction({ ...scope, note, ...mark });
    setBusy("");
    if (!r.ok) return setError(r.error);
    dialog.current?.close();
    setJob(r.job);
  };

  const canStart = mark !== null && mark.total > 0;
  const submit = () => {
    if (busy) return;
    if (canStart) void start();
    else void count();
  };

  const fieldText = field === "*" ? "any field" : field;
  return (
    <>
      <button
        type="button"
        onClick={open}
        disabled={job?.status === "running"}
        className="rounded border border-slate-300 bg-white px-2.5 py-1 text-sm text-slate-700 hover:bg-slate-50 disabled:opacity-50"
        data-testid="bulk-open"
      >
        Relabel all that match…
      </button>
      {reviewer.dialog}
      <ConfirmDialog
        dialog={dialog}
        title="Relabel every field this filter shows"
        onSubmit={submit}
        {...countFirst({
          counted: canStart,
          busy: busy || null,
          action: canStart ? `Relabel ${n(mark.total)} ${mark.total === 1 ? "field" : "fields"}` : "",
          acting: "Starting…",
          testIds: { count: "bulk-count-button", act: "bulk-confirm" },
        })}
        error={error}
        wide
        testId="bulk-dialog"
        errorTestId="bulk-error"
      >
        <p className="text-sm text-slate-600">
          Filter <span className="font-mono text-xs break-all">{filterText || "none (the whole run)"}</span>,
          field <span className="font-mono">{fieldText}</span>.
        </p>
        <div className="flex flex-wrap gap-3">
          <label className="flex flex-col text-xs text-slate-600">
            New label
            <select
              value={label}
              onChange={(e) => {
                setLabel(e.target.value);
                setMark(null);
              }}
              className="mt-1 rounded border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900"
              data-testid="bulk-label"
            >
              {LABEL_KEYS.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
              <option value={CLEAR}>clear the review</option>
            </select>
          </label>
          <label className="flex min-w-[12rem] flex-1 flex-col text-xs text-slate-600">
            Note (kept with each review)
            <input
              value={note}
              onChange={(e) => setNote(e.target.value)}
              maxLength={2000}
              className="mt-1 rounded border border-slate-300 px-2 py-1 text-sm text-slate-900"
              data-testid="bulk-note"
            />
          </label>
        </div>
        {mark ? (
          <p
            className="rounded bg-indigo-50 p-2 text-sm text-indigo-950"
            data-testid="bulk-count"
            data-total={mark.total}
          >
            {mark.total === 0 ? (
              "No field to relabel in this filter."
            ) : (
              <>
                <strong>{n(mark.total)}</strong> {mark.total === 1 ? "field" : "fields"} will get{" "}
                {chosen ? <LabelChip label={chosen} /> : "their review cleared"}, each a review by{" "}
                <strong>{reviewer.name ?? "you"}</strong>. A field someone reviews from now on is skipped and
                listed, never overwritten.
              </>
            )}
          </p>
        ) : null}
      </ConfirmDialog>
      {job ? <BulkProgress job={job} onCancel={cancel} onDismiss={() => setJob(null)} /> : null}
    </>
  );
}

function BulkProgress({
  job,
  onCancel,
  onDismiss,
}: {
  job: BulkJobView;
  onCancel: () => void;
  onDismiss: () => void;
}) {
  const done = job.written + job.skipped;
  const what = job.label ? `relabeled ${job.label}` : "cleared";
  return (
    <div
      className="basis-full rounded-lg border border-indigo-200 bg-white p-3 text-sm"
      role="status"
      aria-live="polite"
      data-testid="bulk-progress"
      data-status={job.status}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p>
          {job.status === "running"
            ? "Bulk relabel: "
            : job.status === "done"
              ? "Bulk relabel done: "
              : `Bulk relabel ${job.status}: `}
          <strong data-testid="bulk-written">{n(job.written)}</strong> of {n(job.total)} fields {what} by{" "}
          {job.reviewer}
          {job.skipped > 0 ? (
            <>
              , <strong data-testid="bulk-skipped">{n(job.skipped)}</strong> skipped
            </>
          ) : null}
        </p>
        {job.status === "running" ? (
          <button
            type="button"
            onClick={onCancel}
            className="text-xs text-red-700 underline"
            data-testid="bulk-cancel"
          >
            stop
          </button>
        ) : (
          <button
            type="button"
            onClick={onDismiss}
            className="text-xs text-slate-600 underline"
            data-testid="bulk-dismiss"
          >
            dismiss
          </button>
        )}
      </div>
      <ProgressBar done={done} total={job.total} />
      {job.error ? <p className="mt-2 text-red-800">{job.error}</p> : null}
      {job.skips.length > 0 ? (
        <div className="mt-2" data-testid="bulk-skips">
          <p className="text-xs text-slate-600">Skipped: reviewed by someone after the count was shown.</p>
          <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs">
            {job.skips.map((s) => (
              <li key={`${s.traceId}/${s.field}`}>
                <a href={`/traces/${s.traceId}`} className="font-mono text-indigo-700 hover:underline">
                  #{s.traceId}
                </a>{" "}
                {s.field}: {s.reviewer} {s.label ?? "cleared"}
              </li>
            ))}
            {job.skipped > job.skips.length ? <li>and {n(job.skipped - job.skips.length)} more</li> : null}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
