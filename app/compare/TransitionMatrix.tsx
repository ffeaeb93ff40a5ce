import { LABEL_ORDER } from "@/lib/labelOrder";

/** Counts of paired traces by label before (rows) and after (columns); off-diagonal cells changed. */
export function TransitionMatrix({
  field,
  matrix,
}: {
  field: string;
  matrix: Record<string, Record<string, number>>;
}) {
  const labels = LABEL_ORDER.filter((l) => matrix[l] || Object.values(matrix).some((row) => row[l]));
  return (
    <table className="text-xs" data-testid="transition-matrix" data-field={field}>
      <caption className="mb-1 text-left font-mono text-sm">{field}</caption>
      <thead>
        <tr>
          <th className="px-1.5 py-1 text-left font-normal text-slate-500">before ↓ after →</th>
          {labels.map((l) => (
            <th key={l} className="px-1.5 py-1 font-mono font-semibold">
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
              const worse = to === "INJECT" && from !== "INJECT";
              const better = from === "INJECT" && to !== "INJECT";
              const cls =
                from === to
                  ? "text-slate-400"
                  : n === 0
                    ? "text-slate-300"
                    : worse
                      ? "bg-red-50 font-semibold text-red-800"
                      : better
                        ? "bg-emerald-50 font-semibold text-emerald-800"
                        : "font-semibold text-slate-800";
              return (
                <td key={to} className={`px-1.5 py-1 text-center tabular-nums ${cls}`}>
                  {n}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
