import { getDb } from "@/db/client";
import { getTraceTexts, originalBody, parseTraceId } from "@/db/queries/traceDetail";
import { locate } from "@/lib/budget/pointer";

/**
 * The raw provider payload exactly as the record wrote it (its bytes, not a re-serialization):
 * the record's `raw`, or the whole record when it was a bare payload. Found without parsing the
 * rest of the record.
 */
export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }) {
  const id = parseTraceId((await ctx.params).id);
  if (id === null) return new Response("not a trace id\n", { status: 404 });
  const row = getTraceTexts(getDb(), id);
  if (!row) return new Response(`no trace ${id}\n`, { status: 404 });
  const body = originalBody(row.original);
  let payload: string | null = body;
  if (row.form !== "payload") {
    const at = await locate(body, ["raw"]).catch(() => null);
    payload = at ? at.text.slice(at.start, at.end) : null;
  }
  if (payload === null) return new Response(`trace ${id} has no raw payload\n`, { status: 404 });
  return new Response(payload, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="trace-${id}-raw.json"`,
    },
  });
}
