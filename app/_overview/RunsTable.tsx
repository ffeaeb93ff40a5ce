import Link from "next/link";
import { LabelChip } from "@/app/_components/LabelChip";
import { RateCell } from "@/app/_components/RateCell";
import type { FieldCounts, RunSummary } from "@/db/queries/runs";
import { LABEL_ORDER } from "@/lib/labelOrder";
import { wilson } from "@/lib/stats";
import { DeleteRunButton } from "./DeleteRunButton";

/** Every field of every probe summed: for runs whose probes name many fields. */
export function allFields(fields: FieldCounts[]): FieldCounts {
  const out: FieldCounts = {
    field: `all ${fields.length} fields`,
    n: 0,
    labels: { ASK: 0, OMIT: 0, COPY: 0, INJECT: 0, DRIFT: 0, ERROR: 0 },
    reasons: {},
    human: { agree: 0, disagree: 0 },
    recorded: { agree: 0, disagree: 0 },
    reviews: { reviewed: 0, corrects: 0, confirms: 0 },
  };
  for (const f of fields) {
    out.n += f.n;
    for (const l of LABEL_ORDER) out.labels[l] += f.labels[l] ?? 0;
  }
  return out;
}

/** The fields a run's row shows: each when there are few, else their sum. */
export function shownFields(run: RunSummary): FieldCounts[] {
  if (run.fields.length === 0) return [];
  if (run.fields.length <= 3) {
    return [...run.fields].sort((a, b) => (a.field === "timezone" ? -1 : b.field === "timezone" ? 1 : 0));
  }
  return [allFields(run.fields)];
}

function topFlags(run: RunSummary): [string, number][] {
  return Object.entries({ ...run.flags, ...run.fieldFlags })
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3);
}

export function RunsTable({ runs }: { runs: RunSummary[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="w-full text-sm" data-testid="runs-table">
        <thead className="border-b border-slate-200 bg-slate-50 text-left text-xs text-slate-600">
          <tr>
            <th className="px-3 py-2 font-medium">Run</th>
            <th className="px-3 py-2 font-medium">Model</th>
            <th className="px-3 py-2 text-right font-medium">Traces</th>
            <th className="px-3 py-2 font-medium">Field</th>
            {LABEL_ORDER.map((l) => (
              <th key={l} className="px-2 py-2 font-medium">
                <LabelChip label={l} />
              </th>
            ))}
            <th className="px-3 py-2 font-medium">Flags</th>
            <th className="px-3 py-2 text-right font-medium">Rejected</th>
            <th className="px-2 py-2">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        {runs.map((run) => {
          const fields = shownFields(run);
          const span = Math.max(fields.length, 1);
          const href = `/runs/${encodeURIComponent(run.name)}`;
          const flags = topFlags(run);
          return (
            <tbody
              key={run.id}
              className="border-b border-slate-200 last:border-0"
              data-testid="run-row"
              data-run={run.name}
            >
              {(fields.length ? fields : [null]).map((f, i) => (
                <tr key={f?.field ?? "none"} className="align-top">
                  {i === 0 ? (
                    <>
                      <td rowSpan={span} className="px-3 py-2">
                        <Link
                          href={href}
                          className="font-mono font-medium break-all text-indigo-700 hover:underline"
                          data-testid="run-link"
                        >
                          {run.name}
                        </Link>
                        <div className="text-xs text-slate-500">
                          {run.date.slice(0, 16).replace("T", " ")}
                          {" · "}
                          {run.probes.length === 1 ? run.probes[0].id : `${run.probes.length} probes`}
                        </div>
                      </td>
                      <td rowSpan={span} className="min-w-[9rem] px-3 py-2 font-mono text-xs break-words">
                        {run.model ?? "—"}
                        {run.mismatchCount > 0 ? (
                          <div
                            className="mt-1 inline-block rounded bg-amber-100 px-1 py-px font-sans text-[11px] whitespace-nowrap text-amber-900"
                            title={`${run.mismatchCount} of this run's payloads named a model other than the pinned one`}
                            data-testid="mismatch-marker"
                          >
                            ◇ {run.mismatchCount} by another model
                          </div>
                        ) : null}
                      </td>
                      <td rowSpan={span} className="px-3 py-2 text-right tabular-nums">
                        {run.traceCount.toLocaleString("en-US")}
                      </td>
                    </>
                  ) : null}
                  <td className="px-3 py-2 font-mono text-xs">
                    {f ? f.field : <span className="text-slate-400">no field</span>}
                  </td>
                  {LABEL_ORDER.map((l) => (
                    <td key={l} className="px-2 py-2">
                      {f ? (
                        <RateCell
                          rate={wilson(f.labels[l] ?? 0, f.n)}
                          emphasis={l === "INJECT"}
                          testId={`rate-${l}`}
                        />
                      ) : null}
                    </td>
                  ))}
                  {i === 0 ? (
                    <>
                      <td rowSpan={span} className="px-3 py-2 text-xs">
                        {flags.length === 0 ? (
                          <span className="text-slate-400">—</span>
                        ) : (
                          flags.map(([name, n]) => (
                            <div key={name} className="font-mono whitespace-nowrap text-slate-700">
                              {name} <span className="text-slate-500">{n}</span>
                            </div>
                          ))
                        )}
                      </td>
                      <td rowSpan={span} className="px-3 py-2 text-right tabular-nums">
                        {run.rejectedCount > 0 ? (
                          <span className="text-red-700">{run.rejectedCount}</span>
                        ) : (
                          <span className="text-slate-400">0</span>
                        )}
                      </td>
                      <td rowSpan={span} className="px-2 py-2">
                        <DeleteRunButton name={run.name} traces={run.traceCount} />
                      </td>
                    </>
                  ) : null}
                </tr>
              ))}
            </tbody>
          );
        })}
      </table>
    </div>
  );
}
