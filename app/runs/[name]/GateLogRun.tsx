import Link from "next/link";
import { Ident } from "@/app/_components/Breakable";
import { Card } from "@/app/_components/Card";
import { FlagList } from "@/app/_components/FlagList";
import { GateBadge } from "@/app/_components/GateBadge";
import { RateCell } from "@/app/_components/RateCell";
import type { RunSummary } from "@/db/queries/runs";
import type { TraceListRow } from "@/db/queries/traceList";
import { gateLogFigures } from "@/lib/gateLogStats";
import { responsePreview } from "@/lib/preview";
import { runHref } from "@/lib/runPath";
import { GATE_LOG_FILTERS, type TraceFilter } from "@/lib/traceFilter";
import type { FilterSelect } from "./FilterBar";
import { type TraceRowsPage, TraceRowsTable } from "./TraceRowsTable";

const n = (x: number) => x.toLocaleString("en-US");

const FILTER_TEXT: Record<(typeof GATE_LOG_FILTERS)[number], string> = {
  allow: "allowed",
  block: "blocked",
  mismatch: "ours decides otherwise",
};

/** A gate-log run's one filter: the recorded verdict, or the decisions our gate decides otherwise. */
export function gateLogSelects(filter: TraceFilter): FilterSelect[] {
  return [
    {
      name: "gate",
      label: "Gate",
      value: filter.gate ?? "",
      any: "every decision",
      options: GATE_LOG_FILTERS.map((v) => ({ value: v, label: FILTER_TEXT[v] })),
    },
  ];
}

function Ranked({ items, testId }: { items: [string, number][]; testId: string }) {
  if (items.length === 0) return <p className="text-sm text-slate-400">none</p>;
  return (
    <ul className="space-y-0.5" data-testid={testId}>
      {items.map(([name, k]) => (
        <li key={name} className="flex justify-between gap-3 font-mono text-xs text-slate-700">
          <Ident text={name} max={80} />
          <span className="text-slate-500 tabular-nums">{n(k)}</span>
        </li>
      ))}
    </ul>
  );
}

/** A gate-log run's figures in place of a probe run's label rates. */
export function GateLogSummary({ run }: { run: RunSummary }) {
  const f = gateLogFigures([run], 5);
  const tools = Object.entries(run.tools).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return (
    <Card title="Gate decisions">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="gate-log-summary">
        <div>
          <p className="text-xs text-slate-600">Blocked (recorded)</p>
          <RateCell rate={f.blocked} testId="gate-log-block-rate" />
          <p className="mt-2 text-xs text-slate-600">
            {f.mismatches > 0 ? (
              <Link
                href={runHref(run.name, new URLSearchParams({ gate: "mismatch" }))}
                className="font-semibold text-red-700 underline"
                data-testid="gate-log-mismatches"
              >
                {n(f.mismatches)} our gate decides otherwise
              </Link>
            ) : (
              <span data-testid="gate-log-mismatches">our gate agrees with every decision</span>
            )}
          </p>
        </div>
        <div>
          <p className="mb-1 text-xs text-slate-600">Most often unknown</p>
          <Ranked items={f.unknown} testId="gate-log-unknown" />
        </div>
        <div>
          <p className="mb-1 text-xs text-slate-600">In conflict</p>
          <Ranked items={f.conflict} testId="gate-log-conflict" />
        </div>
        <div>
          <p className="mb-1 text-xs text-slate-600">Tools</p>
          <Ranked items={tools.slice(0, 5)} testId="gate-log-tools" />
        </div>
      </div>
    </Card>
  );
}

const blocking = (g: TraceListRow["result"]["gate"]) => [
  ...g.unknown.map((x) => `${x} unknown`),
  ...g.conflict.map((x) => `${x} in conflict`),
];

/** One row per decision: when, the call, what the agent's gate recorded, what ours decides. */
export function GateLogTable(page: TraceRowsPage<TraceListRow>) {
  return (
    <TraceRowsTable
      {...page}
      label="Decisions"
      columns={["Decision", "Call", "Recorded", "Ours", "Blocked on", "Flags"]}
      sub={(r) => (
        <div className="font-mono text-[11px] text-slate-500">
          {r.startedAt ? r.startedAt.slice(0, 19).replace("T", " ") : `${r.source}:${r.line}`}
        </div>
      )}
      cells={(r, href) => {
        const recorded = r.recordedGate ?? r.result.gate;
        return (
          <>
            <td className="min-w-[12rem] max-w-[28rem] font-mono text-xs break-words text-slate-700">
              <a href={href} className="hover:underline">
                {responsePreview(r.response, 120)}
              </a>
            </td>
            <td data-testid="recorded-verdict">
              <GateBadge verdict={recorded.verdict} next={recorded.next} />
            </td>
            <td data-testid="our-verdict">
              <GateBadge verdict={r.result.gate.verdict} next={r.result.gate.next} />
            </td>
            <td className="min-w-[9rem] font-mono text-xs text-slate-700">
              {blocking(recorded).length ? (
                blocking(recorded).map((b) => <div key={b}>{b}</div>)
              ) : (
                <span className="text-slate-400">—</span>
              )}
            </td>
            <td>
              <FlagList flags={r.result.flags} />
            </td>
          </>
        );
      }}
    />
  );
}
