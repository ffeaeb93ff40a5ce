import Link from "next/link";
import { ScrollBox } from "@/app/_components/ScrollBox";
import { TrendChart, TrendLegend } from "./TrendChart";
import type { TrendPoint } from "./trend";

/**
 * A trend chart per model over its runs, for one field: near the top of the overview, where it
 * is seen. On a phone the charts sit side by side in a box that scrolls.
 */
export function TrendSection({
  trends,
  field,
  fields,
  hrefFor,
}: {
  trends: { model: string; points: TrendPoint[] }[];
  field: string;
  fields: string[];
  hrefFor: (field: string) => string;
}) {
  return (
    <section className="space-y-2" data-testid="trend-section" aria-labelledby="trend-title">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="trend-title" className="text-lg font-semibold">
          Trend per model
        </h2>
        <nav className="flex flex-wrap gap-2 text-xs" aria-label="Trend field">
          {fields.slice(0, 8).map((f) => (
            <Link
              key={f}
              href={hrefFor(f)}
              aria-current={f === field ? "true" : undefined}
              className={`rounded px-2 py-0.5 font-mono ${f === field ? "bg-slate-900 text-white" : "border border-slate-300 text-slate-700"}`}
            >
              {f}
            </Link>
          ))}
        </nav>
      </div>
      <p className="text-xs text-slate-500">Live labels are weather, the trend is the climate.</p>
      <TrendLegend />
      <ScrollBox label="Trend charts" more="charts">
        <div className="grid auto-cols-[min(20rem,80vw)] grid-flow-col gap-3 lg:auto-cols-auto lg:grid-flow-row lg:grid-cols-2 xl:grid-cols-4">
          {trends.map((t) => (
            <TrendChart key={t.model} model={t.model} field={field} points={t.points} />
          ))}
        </div>
      </ScrollBox>
    </section>
  );
}
