import Link from "next/link";
import { Ident } from "@/app/_components/Breakable";
import { RateCell } from "@/app/_components/RateCell";
import { ScrollBox } from "@/app/_components/ScrollBox";
import type { RunSummary } from "@/db/queries/runs";
import { gateLogFigures } from "@/lib/gateLogStats";
import { runHref } from "@/lib/runPath";
import { RunNameCell, RunRowEnd, RunRowEndHeads } from "./RunCells";

const n = (x: number) => x.toLocaleString("en-US");

/** Facts and how often they blocked, as a short list. */
function Facts({ facts, testId }: { facts: [string, number][]; testId: string }) {
  if (facts.length === 0) return <span className="text-slate-400">—</span>;
  return (
    <ul className="space-y-0.5" data-testid={testId}>
      {facts.map(([name, k]) => (
        <li key={name} className="font-mono text-xs whitespace-nowrap text-slate-700">
          <Ident text={name} max={60} /> <span className="text-slate-500">{n(k)}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * Gate-log runs (the decisions of a gate in the user's own agent, ingested from its decision log),
 * apart from the probe runs: decisions, the block rate with its 95% interval, the decisions our gate
 * decides otherwise, and the facts most often unknown when a call was blocked.
 */
export function GateLogSection({ runs }: { runs: RunSummary[] }) {
  const all = gateLogFigures(runs);
  return (
    <section className="space-y-2" aria-labelledby="gate-logs-title" data-testid="gate-logs">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="gate-logs-title" className="text-base font-semibold">
          Gate decision logs
        </h2>
        {runs.length > 0 ? (
          <p className="text-xs text-slate-600" data-testid="gate-logs-total">
            {n(all.decisions)} decisions in {n(runs.length)} {runs.length === 1 ? "log" : "logs"} ·{" "}
            {n(all.blocked.k)} blocked
            {all.unknown.length > 0 ? (
              <>
                {" "}
                · most often unknown: <span className="font-mono">{all.unknown[0][0]}</span>
              </>
            ) : null}
          </p>
        ) : null}
      </div>
      {runs.length === 0 ? (
        <p
          className="rounded-lg border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-600"
          data-testid="gate-logs-empty"
        >
          No gate decision logs yet. Log your agent's gated side effects with{" "}
          <code className="font-mono text-xs">fileSink</code> from{" "}
          <code className="font-mono text-xs">assumeprobe/gate/node</code> and ingest the file:{" "}
          <code className="font-mono text-xs break-all">npx assumeprobe ingest gate.jsonl</code>{" "}
          (docs/protect-your-agent.md).
        </p>
      ) : (
        <ScrollBox label="Gate decision logs" className="rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-sm" data-testid="gate-logs-table">
            <thead className="border-b border-slate-200 bg-slate-50 text-left text-xs text-slate-600">
              <tr>
                <th className="sticky left-0 z-[1] min-w-[10rem] bg-slate-50 px-3 py-2 font-medium">Log</th>
                <th className="px-3 py-2 text-right font-medium">Decisions</th>
                <th className="px-3 py-2 font-medium">Blocked</th>
                <th className="px-3 py-2 text-right font-medium">Mismatch</th>
                <th className="min-w-[9rem] px-3 py-2 font-medium">Most often unknown</th>
                <RunRowEndHeads />
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => {
                const f = gateLogFigures([run]);
                return (
                  <tr
                    key={run.id}
                    className="border-b border-slate-200 align-top last:border-0"
                    data-testid="gate-log-row"
                    data-run={run.name}
                  >
                    <RunNameCell
                      run={run}
                      linkTestId="gate-log-link"
                      detail={run.model && run.model !== "unknown" ? <Ident text={run.model} /> : null}
                    />
                    <td className="px-3 py-2 text-right tabular-nums" data-testid="gate-log-decisions">
                      {n(f.decisions)}
                    </td>
                    <td className="px-3 py-2">
                      <RateCell rate={f.blocked} testId="gate-log-block-rate" />
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums" data-testid="gate-log-mismatch">
                      {f.mismatches > 0 ? (
                        <Link
                          href={runHref(run.name, new URLSearchParams({ gate: "mismatch" }))}
                          className="font-semibold text-red-700 underline"
                          title="Decisions our gate, re-run on the recorded world state, decides otherwise"
                        >
                          {n(f.mismatches)}
                        </Link>
                      ) : (
                        <span className="text-slate-400">0</span>
                      )}
                    </td>
                    <td className="px-3 py-2">
                      <Facts facts={f.unknown} testId="gate-log-unknown" />
                    </td>
                    <RunRowEnd run={run} />
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollBox>
      )}
    </section>
  );
}
