import type { FieldCounts, RunSummary } from "@/db/queries/runs";
import { ANY_FIELD } from "@/lib/ingest/tags";
import { LABEL_ORDER } from "@/lib/labelOrder";
import { wilson } from "@/lib/stats";

export const SORTS = {
  date: "newest first",
  inject: "INJECT rate, highest first (by its 95% interval's low end)",
  model: "model",
  name: "name",
} as const;
export type Sort = keyof typeof SORTS;

/** Every field of every probe summed: for runs whose probes name many fields. */
export function allFields(fields: FieldCounts[]): FieldCounts {
  const out: FieldCounts = {
    field: `all ${fields.length} fields`,
    n: 0,
    labels: { ASK: 0, OMIT: 0, COPY: 0, INJECT: 0, DRIFT: 0, ERROR: 0 },
    reasons: {},
    human: { agree: 0, disagree: 0 },
    recorded: { agree: 0, disagree: 0 },
    reviews: { reviewed: 0, corrects: 0, confirms: 0 },
  };
  for (const f of fields) {
    out.n += f.n;
    for (const l of LABEL_ORDER) out.labels[l] += f.labels[l] ?? 0;
  }
  return out;
}

/** The counts a sort on `field` reads: that field's, or every field summed for ANY_FIELD. */
export function countsFor(run: RunSummary, field: string): FieldCounts | undefined {
  if (field === ANY_FIELD) return run.fields.length ? allFields(run.fields) : undefined;
  return run.fields.find((f) => f.field === field);
}

/**
 * What "INJECT rate, highest first" ranks by: the low end of the 95% Wilson interval of the
 * field's INJECT rate, the rate the run surely has at least. 2 of 4 (50%, low end 15%) ranks
 * below 60 of 150 (40%, low end 32%). A run that does not probe the field ranks last (-1).
 */
export function injectSortKey(run: RunSummary, field: string): number {
  const f = countsFor(run, field);
  if (!f || f.n === 0) return -1;
  return wilson(f.labels.INJECT ?? 0, f.n).low;
}

/**
 * The fields a sort can be on: those probed by more than one of the runs (timezone first, then
 * by how many runs probe them), then ANY_FIELD, every field summed. A field probed by one run
 * only is kept when it is the one asked for.
 */
export function sortableFields(runs: RunSummary[], keep?: string): string[] {
  const runsPer = new Map<string, number>();
  for (const r of runs) for (const f of r.fields) runsPer.set(f.field, (runsPer.get(f.field) ?? 0) + 1);
  const fields = [...runsPer]
    .filter(([f, n]) => n > 1 || f === keep || runs.length === 1)
    .sort(
      (a, b) =>
        Number(b[0] === "timezone") - Number(a[0] === "timezone") || b[1] - a[1] || a[0].localeCompare(b[0]),
    )
    .map(([f]) => f);
  return [...fields, ANY_FIELD];
}

/** Sorts runs in place: newest first (as listed), by INJECT's low end on `field`, by model, by name. */
export function sortRuns(runs: RunSummary[], sort: Sort, field: string): RunSummary[] {
  if (sort === "inject") {
    const key = new Map(runs.map((r) => [r.id, injectSortKey(r, field)]));
    // Ties (two runs with no INJECT) keep the newest first.
    return runs.sort((a, b) => (key.get(b.id) ?? -1) - (key.get(a.id) ?? -1));
  }
  if (sort === "model")
    return runs.sort((a, b) => (a.model ?? "").localeCompare(b.model ?? "") || b.date.localeCompare(a.date));
  if (sort === "name") return runs.sort((a, b) => a.name.localeCompare(b.name));
  return runs;
}
