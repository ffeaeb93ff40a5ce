import Link from "next/link";
import { Ident } from "@/app/_components/Breakable";
import { Card } from "@/app/_components/Card";
import type { ReviewerState } from "@/app/_review/useReviewer";
import type { RescoreProgressView } from "@/db/queries/rescore/jobs";
import type { RunRef } from "@/db/queries/tuneRuns";
import { runHref } from "@/lib/runPath";
import type { RescoreScope } from "@/lib/tuning/contract";
import { RescoreControl } from "./RescoreControl";

/**
 * The tuning pages' Re-score card: the runs an older configuration scored (the first eight
 * linked), and the control that re-scores them in the background.
 */
export function StaleRunsCard({
  stale,
  scope,
  reviewer,
  running,
  upToDate,
  children,
}: {
  stale: RunRef[];
  scope: Extract<RescoreScope, { kind: "stale" }>;
  reviewer: ReviewerState;
  running: RescoreProgressView[];
  /** What the card says when no run is stale. */
  upToDate: string;
  /** A note below the control. */
  children?: React.ReactNode;
}) {
  const n = stale.length;
  return (
    <Card title="Re-score">
      <p className="mb-2 text-sm text-slate-700" data-testid="stale-runs" data-count={n}>
        {n === 0
          ? upToDate
          : `${n.toLocaleString("en-US")} run${n === 1 ? " is" : "s are"} scored by an older configuration that the current one changes: `}
        {stale.slice(0, 8).map((r, i) => (
          <span key={r.id}>
            {i > 0 ? ", " : ""}
            <Link href={runHref(r.name)} className="font-mono text-indigo-700 hover:underline">
              <Ident text={r.name} />
            </Link>
          </span>
        ))}
        {n > 8 ? ` and ${n - 8} more` : ""}
      </p>
      <RescoreControl
        scope={scope}
        label={`Re-score ${n.toLocaleString("en-US")} run${n === 1 ? "" : "s"}`}
        reviewer={reviewer}
        running={running}
        canStart={n > 0}
      />
      {children}
    </Card>
  );
}
