import { getDb } from "@/db/client";
import { getTraceTexts, parseTraceId } from "@/db/queries/traceDetail";

/** The original record byte for byte, as a download: all of what the trace page shows part of. */
export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }) {
  const id = parseTraceId((await ctx.params).id);
  if (id === null) return new Response("not a trace id\n", { status: 404 });
  const row = getTraceTexts(getDb(), id);
  if (!row) return new Response(`no trace ${id}\n`, { status: 404 });
  const binary = typeof row.original !== "string";
  return new Response(binary ? new Uint8Array(row.original as Buffer) : (row.original as string), {
    headers: {
      "content-type": binary ? "application/octet-stream" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="trace-${id}.json"`,
    },
  });
}
