import { Ident } from "@/app/_components/Breakable";
import { LabelChip } from "@/app/_components/LabelChip";
import { RateCell } from "@/app/_components/RateCell";
import { ScrollBox } from "@/app/_components/ScrollBox";
import type { FieldCounts, RunSummary } from "@/db/queries/runs";
import { ANY_FIELD } from "@/lib/ingest/tags";
import { LABEL_ORDER } from "@/lib/labelOrder";
import { pct, wilson } from "@/lib/stats";
import { RunNameCell, RunRowEnd, RunRowEndHeads } from "./RunCells";
import { allFields, injectSortKey } from "./sort";

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

/** One row group per run; `sortField`, when the runs are sorted by INJECT, shows each run's sort key. */
export function RunsTable({ runs, sortField }: { runs: RunSummary[]; sortField?: string }) {
  return (
    <ScrollBox label="Runs table" className="rounded-lg border border-slate-200 bg-white">
      <table className="w-full text-sm" data-testid="runs-table">
        <thead className="border-b border-slate-200 bg-slate-50 text-left text-xs text-slate-600">
          <tr>
            <th className="sticky left-0 z-[1] min-w-[11.5rem] bg-slate-50 px-3 py-2 font-medium">Run</th>
            <th className="min-w-[8rem] px-3 py-2 font-medium">Model</th>
            <th className="px-3 py-2 text-right font-medium">Traces</th>
            <th className="px-3 py-2 font-medium">Field</th>
            {LABEL_ORDER.map((l) => (
              <th key={l} className="px-2 py-2 font-medium">
                <LabelChip label={l} />
              </th>
            ))}
            <th className="px-3 py-2 font-medium">Flags</th>
            <RunRowEndHeads />
          </tr>
        </thead>
        {runs.map((run) => {
          const fields = shownFields(run);
          const span = Math.max(fields.length, 1);
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
                      <RunNameCell
                        run={run}
                        linkTestId="run-link"
                        rowSpan={span}
                        detail={
                          run.probes.length === 1 ? (
                            <Ident text={run.probes[0].id} />
                          ) : (
                            `${run.probes.length} probes`
                          )
                        }
                      >
                        {sortField ? <SortKey run={run} field={sortField} /> : null}
                      </RunNameCell>
                      <td rowSpan={span} className="px-3 py-2 font-mono text-xs">
                        {run.model ? <Ident text={run.model} /> : "—"}
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
                    {f ? <Ident text={f.field} /> : <span className="text-slate-400">no field</span>}
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
                      <RunRowEnd run={run} rowSpan={span} />
                    </>
                  ) : null}
                </tr>
              ))}
            </tbody>
          );
        })}
      </table>
    </ScrollBox>
  );
}

/** The number an INJECT sort ranked this run by, in words. */
function SortKey({ run, field }: { run: RunSummary; field: string }) {
  const key = injectSortKey(run, field);
  return (
    <div className="mt-1 text-[11px] text-slate-600" data-testid="sort-key">
      {key < 0 ? (
        <>does not probe {field === ANY_FIELD ? "any field" : <span className="font-mono">{field}</span>}</>
      ) : (
        <>
          INJECT at least {pct(key, 1)}
          {field === ANY_FIELD ? (
            " (every field)"
          ) : (
            <>
              {" "}
              on <span className="font-mono">{field}</span>
            </>
          )}
        </>
      )}
    </div>
  );
}
