import { LABEL_ORDER } from "@/lib/labelOrder";

/** How a move from one label to another reads: worse (into INJECT), better (out of it), other, or none. */
export function moveKind(from: string, to: string): "same" | "worse" | "better" | "other" {
  if (from === to) return "same";
  if (to === "INJECT") return "worse";
  if (from === "INJECT") return "better";
  return "other";
}

const SYMBOL = { worse: "▲", better: "▼", other: "", same: "" } as const;
const CELL = {
  worse: "bg-red-50 font-semibold text-red-800",
  better: "bg-emerald-50 font-semibold text-emerald-800",
  other: "font-semibold text-slate-800",
  same: "text-slate-500",
} as const;

/**
 * Counts of paired traces by label before (rows) and after (columns); off-diagonal cells
 * changed. Every cell with traces links to them (`cellHref`); a move into INJECT is red and
 * marked ▲, a move out of it green and marked ▼, so colour is never the only signal.
 */
export function TransitionMatrix({
  field,
  matrix,
  cellHref,
  selected,
}: {
  field: string;
  matrix: Record<string, Record<string, number>>;
  cellHref: (from: string, to: string) => string;
  selected?: { from: string; to: string };
}) {
  const labels = LABEL_ORDER.filter((l) => matrix[l] || Object.values(matrix).some((row) => row[l]));
  return (
    <table className="text-xs" data-testid="transition-matrix" data-field={field}>
      <caption className="mb-1 text-left font-mono text-sm">{field}</caption>
      <thead>
        <tr>
          <th className="px-1.5 py-1 text-left font-normal whitespace-nowrap text-slate-500">
            before ↓ after →
          </th>
          {labels.map((l) => (
            <th key={l} scope="col" className="px-1.5 py-1 font-mono font-semibold">
              {l}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {labels.map((from) => (
          <tr key={from} className="border-t border-slate-100">
            <th scope="row" className="px-1.5 py-1 text-left font-mono font-semibold">
              {from}
            </th>
            {labels.map((to) => {
              const n = matrix[from]?.[to] ?? 0;
              const kind = moveKind(from, to);
              const isSelected = selected?.from === from && selected?.to === to;
              const words = `${n} ${n === 1 ? "trace" : "traces"} ${from === to ? `stayed ${from}` : `went ${from} → ${to}`}${kind === "worse" ? " (worse)" : kind === "better" ? " (better)" : ""}`;
              return (
                <td
                  key={to}
                  className={`p-0 text-center tabular-nums ${n === 0 ? "text-slate-300" : CELL[kind]} ${isSelected ? "outline-2 -outline-offset-2 outline-indigo-600" : ""}`}
                  data-testid="matrix-cell"
                  data-from={from}
                  data-to={to}
                  data-kind={kind}
                >
                  {n === 0 ? (
                    <span className="block px-1.5 py-1">0</span>
                  ) : (
                    <a
                      href={cellHref(from, to)}
                      className="block px-1.5 py-1 whitespace-nowrap hover:underline"
                      title={`${words}: list them`}
                      aria-label={words}
                      aria-current={isSelected ? "true" : undefined}
                    >
                      {SYMBOL[kind] ? <span aria-hidden="true">{SYMBOL[kind]} </span> : null}
                      {n}
                    </a>
                  )}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What the matrices' colours and symbols mean. */
export function MatrixLegend() {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700" data-testid="matrix-legend">
      <li>
        <span className="rounded bg-red-50 px-1 font-semibold text-red-800">▲ n</span> moved into INJECT
        (worse)
      </li>
      <li>
        <span className="rounded bg-emerald-50 px-1 font-semibold text-emerald-800">▼ n</span> moved out of
        INJECT (better)
      </li>
      <li>
        <span className="px-1 font-semibold text-slate-800">n</span> moved between other labels
      </li>
      <li>
        <span className="px-1 text-slate-500">n</span> on the diagonal: unchanged
      </li>
      <li className="text-slate-500">click a count to list its traces</li>
    </ul>
  );
}
