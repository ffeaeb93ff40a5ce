import Link from "next/link";
import { FilterNote } from "@/app/_components/FilterNote";
import type { KeyHelp } from "@/app/_components/KeysHelp";
import { TraceKeys } from "@/app/_components/TraceKeys";
import type { TraceFilter } from "@/lib/traceFilter";

/** Previous, next and back to the run, in the filter the trace was opened from, with their keys. */
export function TraceNav({
  prevHref,
  nextHref,
  backHref,
  filter,
  inFilter,
  keys,
}: {
  prevHref: string | null;
  nextHref: string | null;
  backHref: string;
  filter: TraceFilter;
  inFilter: boolean;
  /** The page's own keys beside j, k and u (the review panel's). */
  keys: KeyHelp[];
}) {
  return (
    <div className="flex flex-col items-end gap-2">
      <div className="flex flex-wrap items-center justify-end gap-2 text-sm" data-testid="trace-nav">
        {prevHref ? (
          <Link
            href={prevHref}
            className="rounded border border-slate-300 bg-white px-2 py-1 hover:bg-slate-50"
            data-testid="prev-link"
            rel="prev"
          >
            <span aria-hidden="true">← </span>previous{" "}
            <kbd className="ml-1 font-mono text-xs text-slate-500">k</kbd>
          </Link>
        ) : (
          <span className="rounded border border-slate-200 px-2 py-1 text-slate-400" data-testid="prev-none">
            <span aria-hidden="true">← </span>no previous
          </span>
        )}
        {nextHref ? (
          <Link
            href={nextHref}
            className="rounded border border-slate-300 bg-white px-2 py-1 hover:bg-slate-50"
            data-testid="next-link"
            rel="next"
          >
            next <kbd className="ml-1 font-mono text-xs text-slate-500">j</kbd>
            <span aria-hidden="true"> →</span>
          </Link>
        ) : (
          <span className="rounded border border-slate-200 px-2 py-1 text-slate-400" data-testid="next-none">
            no next<span aria-hidden="true"> →</span>
          </span>
        )}
        <Link
          href={backHref}
          className="rounded border border-slate-300 bg-white px-2 py-1 hover:bg-slate-50"
          data-testid="back-link"
        >
          back to run <kbd className="ml-1 font-mono text-xs text-slate-500">u</kbd>
        </Link>
      </div>
      <div className="flex items-center gap-2">
        <TraceKeys prevHref={prevHref} nextHref={nextHref} backHref={backHref} extraKeys={keys} />
      </div>
      <FilterNote filter={filter} inFilter={inFilter} />
    </div>
  );
}
