"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { type ReviewerState, useReviewer } from "@/app/_review/useReviewer";
import type { RescoreProgressView } from "@/db/queries/rescore/jobs";
import { runHref } from "@/lib/runPath";
import type { RescoreScope } from "@/lib/tuning/contract";
import { rescoreStatusAction, startRescoreAction } from "./actions";

const n = (x: number) => x.toLocaleString("en-US");

/**
 * Re-scores the runs a scope covers with the current configuration, in the background (a child
 * process, in short batches that resume after a restart), with their progress here; the page is
 * refreshed once they are done.
 */
export function RescoreControl({
  scope,
  label,
  reviewer: server,
  running,
  canStart = true,
  testId = "rescore",
}: {
  scope: RescoreScope;
  label: string;
  reviewer: ReviewerState;
  /** Re-scores already running for this scope (after a reload). */
  running: RescoreProgressView[];
  /** Whether there is anything to re-score (the button shows only then; progress always). */
  canStart?: boolean;
  testId?: string;
}) {
  const router = useRouter();
  const reviewer = useReviewer(server);
  const [jobs, setJobs] = useState<RescoreProgressView[]>(running);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const pending = jobs.some((j) => j.status === "pending");

  useEffect(() => {
    if (!pending) return;
    const t = setTimeout(async () => {
      const r = await rescoreStatusAction({ ids: jobs.map((j) => j.id) });
      if (!r.ok) return setError(r.error);
      setJobs(r.jobs);
      if (r.jobs.every((j) => j.status === "done")) router.refresh();
    }, 700);
    return () => clearTimeout(t);
  }, [jobs, pending, router]);

  const start = async () => {
    setError("");
    let name = reviewer.name;
    if (!name && reviewer.source === "browser") name = await reviewer.ask();
    if (!name) return setError("Say who asks for the re-score first.");
    setBusy(true);
    const r = await startRescoreAction({ scope, reviewer: name });
    setBusy(false);
    if (!r.ok) return setError(r.error);
    setJobs(r.jobs);
  };

  const scanned = jobs.reduce((s, j) => s + Math.min(j.scanned, j.total), 0);
  const total = jobs.reduce((s, j) => s + j.total, 0);
  const changed = jobs.reduce((s, j) => s + j.changed, 0);
  const pct = total > 0 ? Math.round((100 * scanned) / total) : 100;
  return (
    <div className="space-y-2" data-testid={testId}>
      {reviewer.dialog}
      {canStart || pending ? (
        <button
          type="button"
          onClick={start}
          disabled={busy || pending}
          className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white hover:bg-slate-800 disabled:opacity-50"
          data-testid={`${testId}-start`}
        >
          {pending ? "Re-scoring…" : busy ? "Starting…" : label}
        </button>
      ) : null}
      {error ? (
        <p role="alert" className="rounded bg-red-50 p-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      {jobs.length > 0 ? (
        <div
          role="status"
          aria-live="polite"
          className="rounded border border-indigo-200 bg-indigo-50/40 p-2 text-sm"
          data-testid={`${testId}-progress`}
          data-status={pending ? "running" : "done"}
          data-changed={changed}
        >
          <p>
            {pending ? "Re-scoring" : "Re-scored"} {n(jobs.length)} run{jobs.length === 1 ? "" : "s"}:{" "}
            {n(scanned)} of {n(total)} traces read, <strong>{n(changed)}</strong> changed
          </p>
          <div className="mt-1 h-2 overflow-hidden rounded bg-white" aria-hidden="true">
            <div className="h-full bg-indigo-600 transition-[width]" style={{ width: `${pct}%` }} />
          </div>
          <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-0.5 text-xs">
            {jobs.map((j) => (
              <li key={j.id}>
                <Link href={runHref(j.run)} className="font-mono text-indigo-700 hover:underline">
                  {j.run}
                </Link>{" "}
                {j.status === "done" ? `${n(j.changed)} changed` : `${n(j.scanned)}/${n(j.total)}`}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
