import { pct, type Rate } from "@/lib/stats";

const count = (n: number) => n.toLocaleString("en-US");

/**
 * A rate with the sample size behind it and its 95% interval, drawn as a bar: a 3-sample rate
 * shows a wide band, a 3,000-sample one a thin line.
 */
export function RateCell({
  rate,
  emphasis = false,
  testId,
}: {
  rate: Rate;
  emphasis?: boolean;
  testId?: string;
}) {
  if (rate.n === 0) return <span className="text-slate-400">—</span>;
  return (
    <div
      className="min-w-[4.5rem]"
      data-testid={testId}
      title={`${count(rate.k)} of ${count(rate.n)} · 95% interval ${pct(rate.low, 1)}–${pct(rate.high, 1)}`}
    >
      <div className={`tabular-nums ${emphasis ? "font-semibold text-slate-900" : "text-slate-800"}`}>
        {pct(rate.rate)}
        <span className="ml-1 text-[11px] font-normal text-slate-500">
          {count(rate.k)}/{count(rate.n)}
        </span>
      </div>
      <div className="relative mt-0.5 h-1.5 w-16 rounded bg-slate-100" aria-hidden="true">
        <div
          className={`absolute h-1.5 rounded ${emphasis ? "bg-red-300" : "bg-slate-300"}`}
          style={{ left: `${rate.low * 100}%`, width: `${Math.max((rate.high - rate.low) * 100, 1)}%` }}
        />
        <div
          className={`absolute -top-0.5 h-2.5 w-0.5 ${emphasis ? "bg-red-700" : "bg-slate-700"}`}
          style={{ left: `calc(${rate.rate * 100}% - 1px)` }}
        />
      </div>
      <div className="text-[10px] text-slate-500 tabular-nums">
        {pct(rate.low)}–{pct(rate.high)}
      </div>
    </div>
  );
}
