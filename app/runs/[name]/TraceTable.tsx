"use client";

import { Ident } from "@/app/_components/Breakable";
import { FlagList } from "@/app/_components/FlagList";
import { GateBadge } from "@/app/_components/GateBadge";
import { LabelChip } from "@/app/_components/LabelChip";
import { HumanLabels, type HumanLabelView } from "./HumanLabels";
import { type TraceRowsPage, TraceRowsTable } from "./TraceRowsTable";

/** What a row shows, computed on the server (the raw row never crosses to the client). */
export interface TraceRowView {
  id: number;
  /** The record's own id, or `file:line`. */
  ref: string;
  probeId: string;
  /** [field, label], the filtered field first. */
  labels: [string, string][];
  /** Fields whose chips are left out (a probe can have thousands): a count, null for "more". */
  moreLabels: number | null;
  /** The current human label per field that has one (a review, else imported). */
  human: HumanLabelView[];
  flags: string[];
  verdict: string;
  latency: string;
  preview: string;
}

/**
 * One row per trace: a chip per probed field, flags, gate, latency, probe, what the model did.
 * A client component fed compact row views: React renders the rows once (into HTML) instead of
 * once as server components and again from their serialized tree, which halves the cost of a
 * 50-row page. Plain anchors (not next/link) and the `.chip` class keep it lean; the rows' links
 * and anchors are `TraceRowsTable`'s.
 */
export function TraceTable({ showProbe, ...page }: TraceRowsPage<TraceRowView> & { showProbe: boolean }) {
  return (
    <TraceRowsTable
      {...page}
      label="Traces"
      columns={[
        "Trace",
        ...(showProbe ? ["Probe"] : []),
        "Labels",
        "Human",
        "Flags",
        "Gate",
        { name: "Latency", right: true },
        "Response",
      ]}
      sub={(r) => (
        <div className="max-w-[14rem] font-mono text-[11px] whitespace-normal text-slate-500">
          <Ident text={r.ref} max={120} />
        </div>
      )}
      cells={(r, href) => (
        <>
          {showProbe ? (
            <td className="min-w-[10rem] font-mono text-xs text-slate-700">
              <Ident text={r.probeId} />
            </td>
          ) : null}
          <td>
            <div className="flex flex-wrap gap-1">
              {r.labels.length === 0 ? <span className="text-xs text-slate-400">no probed field</span> : null}
              {r.labels.map(([f, label]) => (
                <LabelChip key={f} field={f} label={label} testId="label-chip" />
              ))}
              {r.moreLabels !== 0 ? (
                <span className="text-xs text-slate-500" data-testid="more-labels">
                  +{r.moreLabels === null ? "more" : r.moreLabels.toLocaleString("en-US")} fields
                </span>
              ) : null}
            </div>
          </td>
          <td>
            <HumanLabels labels={r.human} />
          </td>
          <td>
            <FlagList flags={r.flags} />
          </td>
          <td>
            <GateBadge verdict={r.verdict} />
          </td>
          <td className="text-right font-mono text-xs whitespace-nowrap text-slate-600 tabular-nums">
            {r.latency}
          </td>
          <td className="min-w-[14rem] max-w-[36rem] text-xs break-words text-slate-700">
            <a href={href} className="hover:underline">
              {r.preview}
            </a>
          </td>
        </>
      )}
    />
  );
}
