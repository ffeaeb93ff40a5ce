import { getDb } from "@/db/client";
import { currentReviewsIfTrace } from "@/db/queries/reviews";
import { parseTraceId } from "@/db/queries/traceDetail";
import type { FieldReviewNow } from "@/lib/review/meanwhile";

export const dynamic = "force-dynamic";

/**
 * `GET /traces/ID/reviews`: the current review of each reviewed field of the trace (id, label,
 * reviewer, time; no note), `{ "trace": ID, "reviews": { FIELD: … } }`. The trace page and the
 * queue poll it every few seconds while visible, to say when someone else reviewed a field.
 */
export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }) {
  const id = parseTraceId((await ctx.params).id);
  const headers = { "cache-control": "no-store" };
  if (id === null) return Response.json({ error: "not a trace id" }, { status: 404, headers });
  const current = currentReviewsIfTrace(getDb(), id);
  if (!current) return Response.json({ error: `no trace ${id}` }, { status: 404, headers });
  const reviews: Record<string, FieldReviewNow> = {};
  for (const [field, r] of current)
    reviews[field] = { id: r.id, label: r.label, reviewer: r.reviewer, createdAt: r.createdAt };
  return Response.json({ trace: id, reviews }, { headers });
}
