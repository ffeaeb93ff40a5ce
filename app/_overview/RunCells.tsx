import Link from "next/link";
import type { ReactNode } from "react";
import { Ident } from "@/app/_components/Breakable";
import type { RunSummary } from "@/db/queries/runs";
import { runHref } from "@/lib/runPath";
import { DeleteRunButton } from "./DeleteRunButton";

// The cells the overview's two run tables (probe runs, gate decision logs) give every run alike.

/**
 * A run's first cell, sticky so a phone scrolling the figures sideways still sees whose they are:
 * its name linking to its page, when it ran and `detail`, then `children`.
 */
export function RunNameCell({
  run,
  linkTestId,
  detail,
  rowSpan,
  children,
}: {
  run: RunSummary;
  linkTestId: string;
  /** What follows the date, after a dot; null for nothing. */
  detail: ReactNode;
  rowSpan?: number;
  children?: ReactNode;
}) {
  return (
    <td rowSpan={rowSpan} className="sticky left-0 z-[1] bg-white px-3 py-2">
      <Link
        href={runHref(run.name)}
        className="font-mono font-medium text-indigo-700 hover:underline"
        data-testid={linkTestId}
      >
        <Ident text={run.name} />
      </Link>
      <div className="text-xs text-slate-500">
        <span className="whitespace-nowrap">{run.date.slice(0, 16).replace("T", " ")}</span>
        {detail === null ? null : (
          <>
            {" · "}
            {detail}
          </>
        )}
      </div>
      {children}
    </td>
  );
}

/** The last two headers: the rejected lines, and the actions (named for screen readers only). */
export function RunRowEndHeads() {
  return (
    <>
      <th className="px-3 py-2 text-right font-medium">Rejected</th>
      <th className="px-2 py-2">
        <span className="sr-only">Actions</span>
      </th>
    </>
  );
}

/** The last two cells: how many of the run's lines were rejected (red when any), and delete. */
export function RunRowEnd({ run, rowSpan }: { run: RunSummary; rowSpan?: number }) {
  return (
    <>
      <td rowSpan={rowSpan} className="px-3 py-2 text-right tabular-nums">
        {run.rejectedCount > 0 ? (
          <span className="text-red-700">{run.rejectedCount.toLocaleString("en-US")}</span>
        ) : (
          <span className="text-slate-400">0</span>
        )}
      </td>
      <td rowSpan={rowSpan} className="px-2 py-2">
        <DeleteRunButton name={run.name} traces={run.traceCount} />
      </td>
    </>
  );
}
