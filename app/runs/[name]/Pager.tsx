import Link from "next/link";
import type { MatchCount } from "@/db/queries/traceList";

const n = (x: number) => x.toLocaleString("en-US");

/** Where this page sits in the filter: "101–150 of 1,200" (of about / of 1,000+ when counts are bounded). */
export function PagePosition({
  start,
  shown,
  count,
  firstId,
}: {
  start: number | null;
  shown: number;
  count: MatchCount;
  firstId?: number;
}) {
  if (shown === 0) return null;
  const of =
    count.kind === "estimate"
      ? `of about ${n(count.n)}`
      : count.kind === "atLeast"
        ? `of ${n(count.n)}+`
        : `of ${n(count.n)}`;
  return (
    <span className="text-sm text-slate-600 tabular-nums" data-testid="page-position">
      {start === null
        ? `${n(shown)} from trace #${firstId} ${of}`
        : `${n(start + 1)}–${n(start + shown)} ${of}`}
    </span>
  );
}

/** Previous and next page links (n and p on the keyboard click them). */
export function Pager({ prev, next }: { prev: string | null; next: string | null }) {
  const cls = "rounded border border-slate-300 bg-white px-2.5 py-1 text-sm";
  return (
    <nav className="flex gap-2" aria-label="Pages">
      {prev ? (
        <Link href={prev} className={`${cls} hover:bg-slate-50`} rel="prev" data-testid="page-prev">
          ← Previous
        </Link>
      ) : (
        <span className={`${cls} text-slate-300`}>← Previous</span>
      )}
      {next ? (
        <Link href={next} className={`${cls} hover:bg-slate-50`} rel="next" data-testid="page-next">
          Next →
        </Link>
      ) : (
        <span className={`${cls} text-slate-300`}>Next →</span>
      )}
    </nav>
  );
}
