import { PAGE_BUDGET } from "@/lib/budget/jsonBudget";
import { type Fact, isUsable } from "@/lib/gate/facts";
import { InlineValue } from "./ArgumentMarks";
import { identifier } from "./Breakable";
import { CardTableHead } from "./CardTableHead";
import { CutNote } from "./SafeJsonBlock";

/** Facts shown beyond the required ones: a probe or a world_state can hold thousands. */
const MAX_FACTS = PAGE_BUDGET.entries;

const STATUS_STYLE: Record<string, string> = {
  known: "text-emerald-800",
  unknown: "text-amber-900",
  conflict: "text-red-800",
};

/**
 * The facts the agent loop holds, for the required ones first. `origin` says where each came
 * from (the probe, or the trace's own world_state that overrides it).
 */
export function FactsTable({
  facts,
  requires,
  origin,
  testId = "facts-table",
  hypothetical = false,
}: {
  facts: Record<string, Fact>;
  requires: readonly string[];
  origin?: (key: string) => string;
  testId?: string;
  /** The gate did not read these facts (no call, read-only, failed; a probe page): say "would". */
  hypothetical?: boolean;
}) {
  const required = new Set(requires);
  const others = Object.keys(facts).filter((k) => !required.has(k));
  const keys = [...requires, ...others.slice(0, MAX_FACTS)];
  if (keys.length === 0) return <p className="text-sm text-slate-500 italic">no facts</p>;
  return (
    <>
      <div className="overflow-x-auto">
        <table className="w-full text-sm" data-testid={testId}>
          <CardTableHead columns={["Fact", "Status", "Value", "Source", "Required"]} />
          <tbody>
            {keys.map((k) => {
              const f = Object.hasOwn(facts, k) ? facts[k] : undefined;
              const isRequired = required.has(k);
              const passes = isUsable(f);
              return (
                <tr
                  key={k}
                  className="border-b border-slate-100 align-top last:border-0"
                  data-testid="fact-row"
                  data-fact={k}
                >
                  <th scope="row" className="py-1 pr-3 text-left font-mono font-normal">
                    <span className="ident">{identifier(k)}</span>
                  </th>
                  <td className={`py-1 pr-3 font-mono text-xs ${STATUS_STYLE[f?.status ?? "unknown"] ?? ""}`}>
                    {f ? f.status : "missing (unknown)"}
                  </td>
                  <td className="py-1 pr-3">
                    {f && f.value !== undefined ? (
                      <InlineValue value={f.value} max={200} />
                    ) : (
                      <span className="text-slate-400">—</span>
                    )}
                  </td>
                  <td className="py-1 pr-3 text-xs text-slate-600">
                    {f?.source ?? "—"}
                    {origin ? <span className="block text-[11px] text-slate-500">{origin(k)}</span> : null}
                  </td>
                  <td className="py-1 text-xs">
                    {isRequired ? (
                      passes ? (
                        <span className="text-emerald-800">
                          <span aria-hidden="true">✓ </span>
                          {hypothetical ? "yes, would pass" : "yes, passes"}
                        </span>
                      ) : (
                        <span className="font-semibold text-red-800">
                          <span aria-hidden="true">✗ </span>
                          {hypothetical ? "yes, would block" : "yes, blocks"}
                        </span>
                      )
                    ) : (
                      <span className="text-slate-400">no</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {others.length > MAX_FACTS ? (
        <CutNote>{`showing the required facts and ${MAX_FACTS} of ${others.length.toLocaleString("en-US")} others`}</CutNote>
      ) : null}
    </>
  );
}
