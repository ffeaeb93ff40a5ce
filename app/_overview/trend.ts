import type { RunSummary } from "@/db/queries/runs";
import { LABEL_ORDER } from "@/lib/labelOrder";
import type { TrendPoint } from "./TrendChart";

/** Per model, its runs in time order as rate points for one field. */
export function trendsByModel(runs: RunSummary[], field: string): { model: string; points: TrendPoint[] }[] {
  const byModel = new Map<string, TrendPoint[]>();
  const ordered = [...runs].sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id);
  for (const r of ordered) {
    const f = r.fields.find((x) => x.field === field);
    if (!f || f.n === 0 || !r.model) continue;
    const rates: Record<string, number> = {};
    for (const l of LABEL_ORDER) rates[l] = (f.labels[l] ?? 0) / f.n;
    const list = byModel.get(r.model) ?? [];
    list.push({ run: r.name, date: r.date.slice(5, 10), n: f.n, mismatch: r.mismatchCount, rates });
    byModel.set(r.model, list);
  }
  return [...byModel]
    .map(([model, points]) => ({ model, points }))
    .sort((a, b) => a.model.localeCompare(b.model));
}
