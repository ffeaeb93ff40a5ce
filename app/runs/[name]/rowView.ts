import { humanLabelsOf, type Review } from "@/db/queries/reviews";
import type { TraceListRow } from "@/db/queries/traceList";
import { cutOf, leftOut } from "@/lib/budget/jsonBudget";
import { responsePreview } from "@/lib/preview";
import type { TraceRowView } from "./TraceTable";

/**
 * What the trace table shows of a listed trace; `field` (the filtered one) leads the chips.
 * `reviews` are its fields' current reviews: the human label shown is the current one.
 */
export function traceRowView(
  r: TraceListRow,
  field: string | null,
  reviews?: Map<string, Review>,
): TraceRowView {
  const fieldFlags = Object.values(r.result.fields).flatMap((f) => f.flags);
  const labels = Object.entries(r.labels);
  labels.sort((a, b) => (a[0] === field ? -1 : b[0] === field ? 1 : 0));
  return {
    id: r.id,
    ref: r.extId ? r.extId : `${r.source}:${r.line}`,
    probeId: r.probeId,
    labels,
    moreLabels: labelsLeftOut(r.labels),
    human: labels.flatMap(([f, ours]) => {
      const h = humanLabelsOf([f], reviews, r.human)[f];
      return h ? [{ field: f, label: h.label, source: h.source, differs: h.label !== ours }] : [];
    }),
    flags: [...r.result.flags, ...new Set(fieldFlags)],
    verdict: r.result.gate.verdict,
    latency: r.latencyMs === null ? "—" : `${Math.round(r.latencyMs).toLocaleString("en-US")} ms`,
    preview: responsePreview(r.response),
  };
}

/** Fields a row's chips leave out: a count, "some" (null) when the row read only part of them, or 0. */
function labelsLeftOut(labels: Record<string, string>): number | null {
  const cut = cutOf(labels);
  return cut ? leftOut(cut) : 0;
}
