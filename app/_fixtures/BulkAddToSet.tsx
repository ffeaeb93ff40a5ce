"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { type ReviewerState, useReviewer } from "@/app/_review/useReviewer";
import { BULK_ADD_MAX } from "@/lib/fixtures/limits";
import { FIXTURE_SET_STORAGE_KEY } from "@/lib/review/keys";
import { type BulkAddResultView, bulkAddToSetAction } from "./actions";

const n = (x: number) => x.toLocaleString("en-US");

/**
 * Adds every field the run page's filter shows to a fixture set, each with its current human label
 * as the expected one (fields without one are skipped and counted). Filter by a human label first
 * (reviewed, differs from ours) to keep what reviewers judged.
 */
export function BulkAddToSet({
  run,
  query,
  field,
  filterText,
  reviewer: server,
}: {
  run: string;
  query: string;
  field: string;
  filterText: string;
  reviewer: ReviewerState;
}) {
  const reviewer = useReviewer(server);
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<BulkAddResultView | null>(null);

  const open = () => {
    setResult(null);
    dialog.current?.showModal();
    if (input.current) {
      try {
        input.current.value = localStorage.getItem(FIXTURE_SET_STORAGE_KEY) ?? "";
      } catch {
        input.current.value = "";
      }
      input.current.select();
    }
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const set = input.current?.value.trim() ?? "";
    let name = reviewer.name;
    if (!name && reviewer.source === "browser") name = await reviewer.ask();
    if (!name) return setResult({ ok: false, error: "say who is reviewing first" });
    setBusy(true);
    const r = await bulkAddToSetAction({ run, query, field, set });
    setBusy(false);
    setResult(r);
    if (r.ok)
      try {
        localStorage.setItem(FIXTURE_SET_STORAGE_KEY, r.set);
      } catch {
        // Private mode: nothing to remember.
      }
  };

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
      <dialog
        ref={dialog}
        aria-labelledby="bulk-add-title"
        className="m-auto w-[min(30rem,calc(100vw-2rem))] rounded-lg border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/30"
        data-testid="bulk-add-dialog"
      >
        <form onSubmit={submit} className="space-y-3 p-4">
          <h2 id="bulk-add-title" className="text-base font-semibold text-slate-900">
            Add every field this filter shows to a fixture set
          </h2>
          <p className="text-sm text-slate-600">
            Filter <span className="font-mono text-xs break-all">{filterText || "none (the whole run)"}</span>
            , field <span className="font-mono">{field === "*" ? "any field" : field}</span>. Each field's
            current human label becomes its expected label; fields without one are skipped. At most{" "}
            {n(BULK_ADD_MAX)} fields at a time.
          </p>
          <label className="block text-xs font-medium text-slate-600" htmlFor="bulk-add-set">
            Set name (a new name makes a new set)
          </label>
          <input
            id="bulk-add-set"
            ref={input}
            required
            maxLength={100}
            className="w-full rounded border border-slate-300 px-2 py-1 font-mono text-sm"
            data-testid="bulk-add-set"
          />
          {result ? (
            result.ok ? (
              <p
                role="status"
                className="rounded bg-emerald-50 p-2 text-sm text-emerald-900"
                data-testid="bulk-add-result"
              >
                {n(result.added)} added, {n(result.relabelled)} relabelled, {n(result.unchanged)} already
                there, {n(result.skipped)} skipped (no human label)
                {result.truncated
                  ? `; stopped at ${n(result.limit)} fields: narrow the filter for the rest`
                  : ""}
                .{" "}
                <Link href={`/fixtures/${encodeURIComponent(result.set)}`} className="underline">
                  Open {result.set}
                </Link>
              </p>
            ) : (
              <p role="alert" className="rounded bg-red-50 p-2 text-sm text-red-800">
                {result.error}
              </p>
            )
          ) : null}
          <div className="flex justify-end gap-2">
            <button
              type="button"
              onClick={() => dialog.current?.close()}
              className="rounded border border-slate-300 px-3 py-1.5 text-sm"
            >
              Close
            </button>
            <button
              type="submit"
              disabled={busy}
              className="rounded bg-indigo-700 px-3 py-1.5 text-sm text-white disabled:opacity-60"
              data-testid="bulk-add-submit"
            >
              {busy ? "Adding…" : "Add"}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
