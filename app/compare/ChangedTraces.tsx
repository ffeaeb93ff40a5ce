import Link from "next/link";
import { Ident } from "@/app/_components/Breakable";
import { LabelChip } from "@/app/_components/LabelChip";
import { ScrollBox } from "@/app/_components/ScrollBox";
import { getDb } from "@/db/client";
import { changedTraces, type PairCell } from "@/db/queries/compare";

const PAGE = 50;
const n = (x: number) => x.toLocaleString("en-US");

/** The paired traces that changed label (or one matrix cell's pairs), 50 at a time, each side linked. */
export function ChangedTraces({
  aRunId,
  bRunId,
  cell,
  after,
  before,
  pageHref,
  allHref,
}: {
  aRunId: number;
  bRunId: number;
  cell?: PairCell;
  after?: number;
  before?: number;
  pageHref: (k: "after" | "before", id: number) => string;
  allHref: string;
}) {
  const page = changedTraces(getDb(), aRunId, bRunId, { limit: PAGE, after, before, cell });
  const what = cell ? (
    <>
      Traces whose <Ident text={cell.field} className="font-mono" />{" "}
      {cell.from === cell.to ? (
        <>stayed {cell.from}</>
      ) : (
        <>
          went {cell.from} → {cell.to}
        </>
      )}
    </>
  ) : (
    "Traces whose labels changed"
  );
  const btn = "rounded border border-slate-300 bg-white px-2.5 py-1 text-sm hover:bg-slate-50";
  const pager = (where: "top" | "bottom") =>
    page.total <= PAGE ? null : (
      <nav className="flex flex-wrap items-center gap-2" aria-label={`Pages of changed traces (${where})`}>
        <span
          className="text-sm text-slate-600 tabular-nums"
          data-testid={where === "top" ? "changed-position" : undefined}
        >
          {n(page.start + 1)}–{n(page.start + page.changed.length)} of {n(page.total)}
        </span>
        {page.prevBefore !== null ? (
          <Link
            href={pageHref("before", page.prevBefore)}
            className={btn}
            data-testid={where === "top" ? "changed-prev" : undefined}
          >
            ← Previous
          </Link>
        ) : null}
        {page.nextAfter !== null ? (
          <Link
            href={pageHref("after", page.nextAfter)}
            className={btn}
            data-testid={where === "top" ? "changed-next" : undefined}
          >
            Next →
          </Link>
        ) : null}
      </nav>
    );
  return (
    <section id="changed" className="scroll-mt-4 space-y-2" aria-label="Changed traces">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-sm font-medium text-slate-800" data-testid="changed-title">
          {what}: {n(page.total)}
          {cell ? (
            <Link href={allHref} className="ml-2 text-xs font-normal text-indigo-700 hover:underline">
              show every changed trace
            </Link>
          ) : null}
        </h3>
        {pager("top")}
      </div>
      {page.changed.length > 0 ? (
        <ScrollBox label="Changed traces">
          <table className="w-full text-sm" data-testid="changed-traces">
            <thead>
              <tr className="text-left text-xs text-slate-500">
                <th className="py-1 pr-3 font-medium">Trace id</th>
                <th className="py-1 pr-3 font-medium">Before</th>
                <th className="py-1 pr-3 font-medium">After</th>
              </tr>
            </thead>
            <tbody>
              {page.changed.map((c) => (
                <tr key={c.aId} className="border-t border-slate-100 align-top" data-testid="changed-trace">
                  <td className="min-w-[5.5rem] py-1.5 pr-3 font-mono text-xs">
                    <Ident text={c.extId} />
                  </td>
                  <td className="py-1.5 pr-3">
                    <Link
                      href={`/traces/${c.aId}`}
                      className="flex flex-wrap gap-1"
                      aria-label={`Before: trace #${c.aId}`}
                    >
                      {Object.entries(c.aLabels).map(([f, l]) => (
                        <LabelChip key={f} field={f} label={l} />
                      ))}
                    </Link>
                  </td>
                  <td className="py-1.5 pr-3">
                    <Link
                      href={`/traces/${c.bId}`}
                      className="flex flex-wrap gap-1"
                      aria-label={`After: trace #${c.bId}`}
                    >
                      {Object.entries(c.bLabels).map(([f, l]) => (
                        <LabelChip key={f} field={f} label={l} />
                      ))}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      ) : (
        <p className="text-sm text-slate-500">None.</p>
      )}
      {page.changed.length > 20 ? <div className="flex justify-end">{pager("bottom")}</div> : null}
    </section>
  );
}
