import type { RunSummary } from "@/db/queries/runs";
import { LABEL_ORDER } from "@/lib/labelOrder";
import { wilson } from "@/lib/stats";

export interface TrendPoint {
  run: string;
  date: string;
  n: number;
  mismatch: number;
  /** Per label, the rate (0-1). */
  rates: Record<string, number>;
  /** Per label, the 95% Wilson interval of the rate, [low, high] (0-1). */
  bands: Record<string, [number, number]>;
}

/** Per model, its runs in time order as rate points for one field. */
export function trendsByModel(runs: RunSummary[], field: string): { model: string; points: TrendPoint[] }[] {
  const byModel = new Map<string, TrendPoint[]>();
  const ordered = [...runs].sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id);
  for (const r of ordered) {
    const f = r.fields.find((x) => x.field === field);
    if (!f || f.n === 0 || !r.model) continue;
    const rates: Record<string, number> = {};
    const bands: Record<string, [number, number]> = {};
    for (const l of LABEL_ORDER) {
      const w = wilson(f.labels[l] ?? 0, f.n);
      rates[l] = w.rate;
      bands[l] = [w.low, w.high];
    }
    const list = byModel.get(r.model) ?? [];
    list.push({ run: r.name, date: r.date.slice(5, 10), n: f.n, mismatch: r.mismatchCount, rates, bands });
    byModel.set(r.model, list);
  }
  return [...byModel]
    .map(([model, points]) => ({ model, points }))
    .sort((a, b) => a.model.localeCompare(b.model));
}
