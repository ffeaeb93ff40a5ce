import Link from "next/link";
import type { IngestRow } from "@/db/queries/ingestList";
import { describeFailure } from "@/lib/ingest/pipeline";
import { runHref } from "@/lib/runPath";

const fmt = (n: number) => n.toLocaleString("en-US");

const STATUS: Record<string, { label: string; className: string }> = {
  done: { label: "done", className: "bg-emerald-100 text-emerald-900" },
  running: { label: "running", className: "bg-indigo-100 text-indigo-900" },
  failed: { label: "failed", className: "bg-red-100 text-red-900" },
  interrupted: { label: "interrupted", className: "bg-amber-100 text-amber-900" },
};

const ORIGIN: Record<string, string> = { cli: "command line", upload: "upload", demo: "demo data" };

/** "2026-11-29 10:00:03 UTC" from a stored timestamp. */
const when = (ts: string) => `${ts.slice(0, 10)} ${ts.slice(11, 19)} UTC`;

function duration(from: string, to: string | null): string | null {
  if (!to) return null;
  const s = (Date.parse(to) - Date.parse(from)) / 1000;
  if (!Number.isFinite(s) || s < 0) return null;
  return s < 60 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

/** One ingest: where it came from, how it ended, its counts, runs, unreadable files and error. */
export function IngestCard({ ingest: g, linkErrors }: { ingest: IngestRow; linkErrors: boolean }) {
  const status = STATUS[g.status] ?? { label: g.status, className: "bg-slate-100 text-slate-800" };
  const took = duration(g.startedAt, g.finishedAt);
  return (
    <li
      className="space-y-1.5 rounded-lg border border-slate-200 bg-white p-3 text-sm"
      data-testid="ingest-row"
    >
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <Link
          href={`/ingests/${g.id}`}
          className="inline-flex min-h-6 min-w-6 items-center font-mono font-medium text-indigo-700 underline"
        >
          #{g.id}
        </Link>
        <span className={`rounded px-1.5 py-0.5 text-xs ${status.className}`} data-testid="ingest-status">
          {status.label}
        </span>
        <span className="text-slate-600">{ORIGIN[g.origin] ?? g.origin}</span>
        <span className="text-xs text-slate-500">
          {when(g.startedAt)}
          {took ? ` · ${took}` : null}
        </span>
      </div>
      <Files files={g.files} />
      {g.status === "running" ? (
        <p className="text-xs text-slate-600">
          Still running (pid {g.pid} on {g.host}); its counts appear when it ends.
        </p>
      ) : g.status === "interrupted" && g.finishedAt !== null && g.records === 0 ? (
        <p className="text-xs text-slate-600" data-testid="ingest-counts">
          Its counts were never recorded. Ingesting the same files again stores what it did not.
        </p>
      ) : (
        <p data-testid="ingest-counts">
          <strong>{fmt(g.records)}</strong> record{g.records === 1 ? "" : "s"}:{" "}
          <strong>{fmt(g.ingested)}</strong> ingested, {fmt(g.duplicates)} already stored,{" "}
          <strong className={g.rejected ? "text-red-700" : ""}>{fmt(g.rejected)}</strong> rejected
          {linkErrors && g.storedErrors > 0 ? (
            <>
              {" "}
              ·{" "}
              <Link href={`/ingests/${g.id}#errors`} className="text-indigo-700 underline">
                the rejected records
              </Link>
            </>
          ) : null}
        </p>
      )}
      {g.runs.length > 0 ? (
        <Many items={g.runs} shown={6} noun="runs">
          {(r) => (
            <li key={r.name}>
              <Link
                href={runHref(r.name)}
                className="inline-flex min-h-6 items-center break-all font-mono text-indigo-700 underline"
              >
                {r.name}
              </Link>{" "}
              · {fmt(r.ingested)} new
            </li>
          )}
        </Many>
      ) : null}
      {g.unreadable.map((u) => (
        <p key={u.file} className="break-words text-xs text-red-800">
          <span className="font-mono">{u.file}</span>: {describeFailure(u)}
        </p>
      ))}
      {g.error ? (
        <p className="break-words text-xs text-red-800" data-testid="ingest-error">
          {g.status === "interrupted" ? "Interrupted: " : "Stopped: "}
          {g.error}
        </p>
      ) : null}
    </li>
  );
}

/** A file's base name (the full path is its title). */
const baseName = (f: string) => f.split(/[\\/]/).pop() || f;

function Files({ files }: { files: string[] }) {
  if (files.length === 0) return <p className="text-xs text-slate-500">(no files)</p>;
  return (
    <Many items={files} shown={3} noun="files" mono>
      {(f) => (
        <li key={f} title={f}>
          {baseName(f)}
        </li>
      )}
    </Many>
  );
}

/** The first `shown` items, the rest behind a "N more" toggle. */
function Many<T>({
  items,
  shown,
  noun,
  mono,
  children,
}: {
  items: T[];
  shown: number;
  noun: string;
  mono?: boolean;
  children: (item: T) => React.ReactNode;
}) {
  const cls = `flex flex-wrap gap-x-3 gap-y-1 text-xs ${mono ? "break-all font-mono text-slate-700" : ""}`;
  if (items.length <= shown + 1) return <ul className={cls}>{items.map(children)}</ul>;
  return (
    <details className="text-xs">
      <summary className="cursor-pointer">
        <ul className={`${cls} inline-flex`}>{items.slice(0, shown).map(children)}</ul>{" "}
        <span className="text-indigo-700 underline">
          and {items.length - shown} more {noun}
        </span>
      </summary>
      <ul className={`${cls} mt-1`}>{items.slice(shown).map(children)}</ul>
    </details>
  );
}
