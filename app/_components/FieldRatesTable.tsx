import type { FieldCounts } from "@/db/queries/runs";
import { LABEL_ORDER } from "@/lib/labelOrder";
import { wilson } from "@/lib/stats";
import { LabelChip } from "./LabelChip";
import { RateCell } from "./RateCell";

/** Label rates per field, INJECT first, each with its sample size and interval; cells link to a filter. */
export function FieldRatesTable({
  fields,
  hrefFor,
  max = 6,
}: {
  fields: FieldCounts[];
  hrefFor?: (field: string, label: string) => string;
  max?: number;
}) {
  const shown = fields.slice(0, max);
  return (
    <div className="overflow-x-auto">
      <table className="text-sm" data-testid="field-rates">
        <thead>
          <tr className="text-left text-xs text-slate-500">
            <th className="py-1 pr-4 font-medium">Field</th>
            {LABEL_ORDER.map((l) => (
              <th key={l} className="px-2 py-1 font-medium">
                <LabelChip label={l} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((f) => (
            <tr key={f.field} className="border-t border-slate-100 align-top" data-testid="field-rate-row">
              <th scope="row" className="py-2 pr-4 text-left font-mono text-sm font-normal">
                {f.field}
                <div className="text-[11px] font-sans text-slate-500">n = {f.n.toLocaleString("en-US")}</div>
              </th>
              {LABEL_ORDER.map((l) => {
                const cell = <RateCell rate={wilson(f.labels[l] ?? 0, f.n)} emphasis={l === "INJECT"} />;
                return (
                  <td key={l} className="px-2 py-2">
                    {hrefFor && (f.labels[l] ?? 0) > 0 ? (
                      <a
                        href={hrefFor(f.field, l)}
                        className="block rounded hover:bg-slate-50"
                        aria-label={`Show ${l} traces for ${f.field}`}
                      >
                        {cell}
                      </a>
                    ) : (
                      cell
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {fields.length > max ? (
        <p className="mt-1 text-xs text-slate-500">
          and {fields.length - max} more fields (filter by field below to see one)
        </p>
      ) : null}
    </div>
  );
}
