import type { ReactNode } from "react";
import { ScrollBox } from "@/app/_components/ScrollBox";

/** One page of a run's rows, as the run page hands it to its table. */
export interface TraceRowsPage<R> {
  rows: R[];
  /** The filter as URL parameters, kept by each trace's link. */
  query: string;
  /** The page's first position in the filter, when known (`pos` on each link). */
  start?: number | null;
  /** The trace the reviewer came back from. */
  highlight?: number;
}

/** A header cell: its name, right-aligned when it heads numbers. */
export type Column = string | { name: string; right: true };

/**
 * The run page's table of traces (a probe run's) or of decisions (a gate log's), one row a trace.
 * Each row is the anchor the trace page's `u` returns to (`highlight` marks the row the reviewer
 * came back from), and its first cell links to the trace with the filter and its position in it
 * (`pos`, when the page's `start` is known), so j, k and u on the trace page keep both. Plain
 * anchors and the `.trace-row` class keep a 50-row page lean.
 */
export function TraceRowsTable<R extends { id: number }>({
  label,
  rows,
  query,
  start = null,
  highlight,
  columns,
  sub,
  cells,
}: TraceRowsPage<R> & {
  label: string;
  /** The first is the trace's column. */
  columns: readonly Column[];
  /** What stands under the trace's link in the first cell. */
  sub: (row: R) => ReactNode;
  /** The row's other cells; `href` is the trace's link. */
  cells: (row: R, href: string) => ReactNode;
}) {
  return (
    <ScrollBox label={label} className="rounded-lg border border-slate-200 bg-white">
      <table className="w-full text-sm" data-testid="trace-table">
        <thead className="border-b border-slate-200 bg-slate-50 text-left text-xs text-slate-600">
          <tr>
            {columns.map((c) =>
              typeof c === "string" ? (
                <th key={c} className="px-3 py-2 font-medium">
                  {c}
                </th>
              ) : (
                <th key={c.name} className="px-3 py-2 text-right font-medium">
                  {c.name}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => {
            const pos = start === null ? "" : `pos=${start + i + 1}`;
            const qs = [query, pos].filter(Boolean).join("&");
            const href = `/traces/${r.id}${qs ? `?${qs}` : ""}`;
            return (
              <tr
                key={r.id}
                id={`trace-${r.id}`}
                className="trace-row"
                data-testid="trace-row"
                data-trace-id={r.id}
                data-came-from={r.id === highlight ? "true" : undefined}
              >
                <td className="whitespace-nowrap">
                  <a
                    href={href}
                    className="font-mono text-indigo-700 hover:underline"
                    data-testid="trace-link"
                  >
                    #{r.id}
                  </a>
                  {sub(r)}
                </td>
                {cells(r, href)}
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollBox>
  );
}
