import { LabelChip } from "@/app/_components/LabelChip";
import { RateCell } from "@/app/_components/RateCell";
import type { FieldCounts } from "@/db/queries/runs";
import { LABEL_ORDER } from "@/lib/labelOrder";
import { rateChange, WORSE_WHEN_RISING, wilson } from "@/lib/stats";
import { formatDelta } from "./delta";

/** How each label's rate moved for one field, with both intervals and whether it is likely real. */
export function ChangeTable({
  field,
  a,
  b,
}: {
  field: string;
  a: FieldCounts | undefined;
  b: FieldCounts | undefined;
}) {
  const an = a?.n ?? 0;
  const bn = b?.n ?? 0;
  return (
    <table className="w-full text-sm" data-testid="change-table" data-field={field}>
      <thead>
        <tr className="text-left text-xs text-slate-500">
          <th className="py-1 pr-3 font-medium">Label</th>
          <th className="px-2 py-1 font-medium">Before (n={an})</th>
          <th className="px-2 py-1 font-medium">After (n={bn})</th>
          <th className="px-2 py-1 font-medium">Change</th>
        </tr>
      </thead>
      <tbody>
        {LABEL_ORDER.map((l) => {
          const ak = a?.labels[l] ?? 0;
          const bk = b?.labels[l] ?? 0;
          if (ak === 0 && bk === 0) return null;
          const { delta, beyondNoise: real } = rateChange(ak, an, bk, bn);
          const shown = formatDelta(delta);
          const worse = WORSE_WHEN_RISING.includes(l) === delta > 0;
          const verdict = !real
            ? "within sampling noise"
            : worse
              ? "worse: beyond sampling noise (95%)"
              : "better: beyond sampling noise (95%)";
          return (
            <tr
              key={l}
              className="border-t border-slate-100 align-top"
              data-testid="change-row"
              data-label={l}
            >
              <td className="py-2 pr-3">
                <LabelChip label={l} />
              </td>
              <td className="px-2 py-2">
                <RateCell rate={wilson(ak, an)} emphasis={l === "INJECT"} />
              </td>
              <td className="px-2 py-2">
                <RateCell rate={wilson(bk, bn)} emphasis={l === "INJECT"} />
              </td>
              <td className="px-2 py-2 whitespace-nowrap">
                <span
                  className={`font-mono tabular-nums ${real ? (worse ? "font-semibold text-red-700" : "font-semibold text-emerald-700") : "text-slate-600"}`}
                  data-testid="delta"
                  data-verdict={!real ? "noise" : worse ? "worse" : "better"}
                >
                  {shown.arrow ? `${shown.arrow} ` : ""}
                  {shown.text}
                </span>
                <div
                  className={`min-w-[8rem] text-[11px] whitespace-normal ${real ? (worse ? "text-red-800" : "text-emerald-800") : "text-slate-500"}`}
                >
                  {real ? (worse ? "✗ " : "✓ ") : ""}
                  {verdict}
                </div>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
