"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { ConfirmDialog, countFirst } from "@/app/_components/ConfirmDialog";
import { LabelChip } from "@/app/_components/LabelChip";
import { ProgressBar } from "@/app/_components/ProgressBar";
import { useBackgroundJob } from "@/app/_components/useBackgroundJob";
import { type ReviewerState, useReviewer } from "@/app/_review/useReviewer";
import type { BulkAddCount, BulkAddResult } from "@/db/queries/fixturesBulk";
import { LABEL_KEYS } from "@/lib/review/humanLabel";
import { FIXTURE_SET_STORAGE_KEY } from "@/lib/review/keys";
import { bulkAddStatusAction, bulkAddToSetAction, cancelBulkAddAction, countBulkAddAction } from "./actions";
import type { BulkAddJobView } from "./bulkAddView";

const n = (x: number) => x.toLocaleString("en-US");
const fields = (x: number) => `${n(x)} ${x === 1 ? "field" : "fields"}`;

/**
 * Adds every field the run page's filter shows to a fixture set, each with its current human label
 * as the expected one: name the set, count, confirm the count, follow the background job (written in
 * short batches; it resumes after a reload or a restart), then see what was added. Fields with
 * no human label are skipped and counted; a field someone reviews after the count is skipped and
 * listed (the add writes what was confirmed). Filter by a human label first (reviewed, differs
 * from ours) to keep what reviewers judged.
 */
export function BulkAddToSet({
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
  /** The run's bulk add still running (after a reload), to follow. */
  running: BulkAddJobView | null;
}) {
  const reviewer = useReviewer(server);
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<"" | "counting" | "acting">("");
  const [count, setCount] = useState<(BulkAddCount & { setName: string }) | null>(null);
  const { job, setJob, cancel } = useBackgroundJob(running, {
    status: bulkAddStatusAction,
    cancel: cancelBulkAddAction,
  });
  const [kind, setKind] = useState<Choice>("corrections");
  const [shown, setShown] = useState(false);
  const [error, setError] = useState("");
  const adding = job?.status === "running";
  const result = job && !adding ? job : null;

  const open = () => {
    setCount(null);
    if (!adding) setJob(null);
    setError("");
    dialog.current?.showModal();
    setShown(true);
    if (input.current) {
      try {
        input.current.value = localStorage.getItem(FIXTURE_SET_STORAGE_KEY) ?? "";
      } catch {
        input.current.value = "";
      }
      input.current.select();
    }
  };

  const countFields = async (of: Choice = kind) => {
    const set = input.current?.value.trim() ?? "";
    if (set === "") return setError("Name the set to add to (a new name makes a new set).");
    setBusy("counting");
    setError("");
    setJob(null);
    const r = await countBulkAddAction({ run, query, field, set, kind: of });
    setBusy("");
    if (r.ok) setCount({ ...r, setName: set });
    else setError(r.error);
  };

  const add = async () => {
    if (!count) return;
    let name = reviewer.name;
    if (!name && reviewer.source === "browser") name = await reviewer.ask();
    if (!name) return setError("Say who is reviewing first: your name goes with each fixture.");
    setBusy("acting");
    setError("");
    const r = await bulkAddToSetAction({
      run,
      query,
      field,
      set: count.setName,
      kind: count.kind,
      total: count.total,
      seenReviewId: count.seenReviewId,
      lastTraceId: count.lastTraceId,
    });
    setBusy("");
    if (!r.ok) return setError(r.error);
    setCount(null);
    setJob(r.job);
    try {
      localStorage.setItem(FIXTURE_SET_STORAGE_KEY, r.job.result.set);
    } catch {
      // Private mode: nothing to remember.
    }
  };

  const submit = () => {
    if (busy || adding) return;
    if (count && !count.overLimit && count.total > 0) void add();
    else void countFields();
  };

  const canAdd = count !== null && !count.overLimit && count.total > 0 && !adding;
  const jobNote = job ? <JobNote job={job} onCancel={cancel} /> : null;
  return (
    <>
      <button
        type="button"
        onClick={open}
        className="rounded border border-slate-300 bg-white px-2.5 py-1 text-sm text-slate-700 hover:bg-slate-50"
        data-testid="bulk-add-open"
      >
        Add all that match to a set…
      </button>
      {reviewer.dialog}
      <ConfirmDialog
        dialog={dialog}
        title="Add every field this filter shows to a fixture set"
        onSubmit={submit}
        {...countFirst({
          counted: canAdd,
          busy: busy || null,
          action: canAdd ? `Add ${fields(count.total)}` : "",
          acting: "Adding…",
          testIds: { count: "bulk-add-count", act: "bulk-add-confirm" },
        })}
        // Once a job runs, only Close is left.
        {...(job && !canAdd ? { confirm: null } : {})}
        error={error}
        cancel={job ? "Close" : "Cancel"}
        initialFocus={input}
        onClose={() => setShown(false)}
        wide
        testId="bulk-add-dialog"
        errorTestId="bulk-add-error"
      >
        <p className="text-sm text-slate-600">
          Filter <span className="font-mono text-xs break-all">{filterText || "none (the whole run)"}</span>,
          field <span className="font-mono">{field === "*" ? "any field" : field}</span>. Each field's current
          human label becomes its expected label; fields without one are skipped.
        </p>
        <label className="block text-xs font-medium text-slate-600" htmlFor="bulk-add-set">
          Set name (a new name makes a new set)
        </label>
        <input
          id="bulk-add-set"
          ref={input}
          required
          maxLength={100}
          autoComplete="off"
          onChange={() => {
            setCount(null);
            if (!adding) setJob(null);
          }}
          className="w-full rounded border border-slate-300 px-2 py-1 font-mono text-sm"
          data-testid="bulk-add-set"
        />
        <fieldset className="text-sm" data-testid="bulk-add-kind">
          <legend className="text-xs font-medium text-slate-600">Which fields</legend>
          {CHOICES.map((c) => (
            <label key={c.kind} className="flex min-h-6 items-center gap-2">
              <input
                type="radio"
                name="bulk-add-kind"
                value={c.kind}
                checked={kind === c.kind}
                onChange={() => {
                  setKind(c.kind);
                  if (!adding) setJob(null);
                  // A count taken is taken again for the other kind; none yet, none now.
                  if (count) void countFields(c.kind);
                }}
                className="h-6 w-6"
                data-testid={`bulk-add-kind-${c.kind}`}
              />
              <span>
                {c.title}
                {count ? (
                  <span className="tabular-nums" data-testid={`bulk-add-kind-count-${c.kind}`}>
                    {" "}
                    ({n(count.kinds[c.kind])})
                  </span>
                ) : null}
                <span className="block text-xs text-slate-500">{c.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {count ? <CountNote count={count} reviewer={reviewer.name} /> : null}
        {shown ? jobNote : null}
      </ConfirmDialog>
      {job && !shown ? (
        <div className="basis-full" data-testid="bulk-add-job">
          {jobNote}
          {result ? (
            <button
              type="button"
              onClick={() => setJob(null)}
              className="mt-1 text-xs text-slate-600 underline"
              data-testid="bulk-add-dismiss"
            >
              dismiss
            </button>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

type Choice = "corrections" | "confirmations";
/** The two kinds a set may take, so it can guard both sides of the boundary (DESIGN.md). */
const CHOICES: { kind: Choice; title: string; hint: string }[] = [
  { kind: "corrections", title: "Corrections", hint: "the human label differs from ours" },
  { kind: "confirmations", title: "Confirmations", hint: "the human label is ours" },
];

/** A bulk add running (its progress, a way to stop it), or ended (what it did). */
function JobNote({ job, onCancel }: { job: BulkAddJobView; onCancel: () => void }) {
  if (job.status !== "running")
    return (
      <>
        {job.status === "done" ? null : (
          <p
            role="alert"
            className="rounded bg-amber-50 p-2 text-sm text-amber-950"
            data-testid="bulk-add-stopped"
          >
            {job.status === "cancelled"
              ? `Stopped after ${fields(job.done)} of ${n(job.total)}: what was added stays.`
              : `The add failed after ${fields(job.done)} of ${n(job.total)}: ${job.error ?? "unknown error"}`}
          </p>
        )}
        <ResultNote result={job.result} />
      </>
    );
  return (
    <div
      className="rounded-lg border border-indigo-200 bg-white p-3 text-sm"
      role="status"
      aria-live="polite"
      data-testid="bulk-add-progress"
      data-status={job.status}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p>
          Adding to <span className="font-mono">{job.result.set}</span>:{" "}
          <strong data-testid="bulk-add-done">{n(job.done)}</strong> of {n(job.total)} fields by{" "}
          {job.reviewer}
        </p>
        <button
          type="button"
          onClick={onCancel}
          className="text-xs text-red-700 underline"
          data-testid="bulk-add-cancel"
        >
          stop
        </button>
      </div>
      <ProgressBar done={job.done} total={job.total} />
    </div>
  );
}

/** The count the reviewer confirms: how many fields, by expected label, into which set. */
function CountNote({
  count,
  reviewer,
}: {
  count: BulkAddCount & { setName: string };
  reviewer: string | null;
}) {
  const into = count.set ? (
    <>
      the set <span className="font-mono font-semibold">{count.set.name}</span> ({n(count.set.fixtures)}{" "}
      {count.set.fixtures === 1 ? "fixture" : "fixtures"} now)
    </>
  ) : (
    <>
      the new set <span className="font-mono font-semibold">{count.setName}</span>
    </>
  );
  const skipped =
    count.noLabel > 0
      ? ` ${fields(count.noLabel)} the filter shows have no human label and are skipped.`
      : "";
  return (
    <div
      className={`rounded p-2 text-sm ${count.overLimit ? "bg-amber-50 text-amber-950" : "bg-indigo-50 text-indigo-950"}`}
      data-testid="bulk-add-counted"
      data-total={count.total}
      data-over-limit={count.overLimit ? "yes" : "no"}
    >
      {count.overLimit ? (
        <p>
          More than <strong>{fields(count.limit)}</strong> with a human label: one bulk add takes at most{" "}
          {n(count.limit)}. Narrow the filter (a label, a human label, a search) and count again.
        </p>
      ) : count.total === 0 ? (
        <p>
          No field this filter shows is a {count.kind === "confirmations" ? "confirmation" : "correction"}:
          nothing to add.{skipped}
        </p>
      ) : (
        <>
          <p>
            <strong>{fields(count.total)}</strong> ({count.kind}) will go into {into}, each with its human
            label as the expected one, added by <strong>{reviewer ?? "you"}</strong>.{skipped}
          </p>
          <p className="mt-1 flex flex-wrap items-center gap-1.5" data-testid="bulk-add-labels">
            {LABEL_KEYS.filter((l) => count.labels[l]).map((l) => (
              <span key={l} className="inline-flex items-center gap-1">
                <LabelChip label={l} /> <span className="tabular-nums">{n(count.labels[l] ?? 0)}</span>
              </span>
            ))}
          </p>
          <p className="mt-1 text-xs">
            A field already in the set gets the new expected label (kept in its history). A field someone
            reviews from now on is skipped and listed, never added with a label you did not see.
          </p>
        </>
      )}
    </div>
  );
}

/** What the add did, with the fields skipped because someone reviewed them after the count. */
function ResultNote({ result }: { result: BulkAddResult }) {
  return (
    <div
      role="status"
      className="rounded bg-emerald-50 p-2 text-sm text-emerald-900"
      data-testid="bulk-add-result"
    >
      <p>
        {result.created ? "New set " : "Set "}
        <span className="font-mono">{result.set}</span>:{" "}
        <strong data-testid="bulk-added">{n(result.added)}</strong> added, {n(result.relabelled)} relabelled,{" "}
        {n(result.unchanged)} already there
        {result.noLabel > 0 ? `, ${n(result.noLabel)} skipped (no human label)` : ""}
        {result.changed > 0 ? (
          <>
            , <strong data-testid="bulk-add-changed">{n(result.changed)}</strong> skipped (reviewed after the
            count)
          </>
        ) : null}
        .{" "}
        <Link
          href={`/fixtures/${encodeURIComponent(result.set)}`}
          className="underline"
          data-testid="bulk-add-open-set"
        >
          Open {result.set}
        </Link>
      </p>
      {result.changes.length > 0 ? (
        <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs" data-testid="bulk-add-changes">
          {result.changes.map((c) => (
            <li key={`${c.traceId}/${c.field}`}>
              <a href={`/traces/${c.traceId}`} className="font-mono text-indigo-700 hover:underline">
                #{c.traceId}
              </a>{" "}
              {c.field}: {c.review.reviewer} {c.review.label ?? "cleared"}
            </li>
          ))}
          {result.changed > result.changes.length ? (
            <li>and {n(result.changed - result.changes.length)} more</li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}
