import { getDb } from "@/db/client";
import { exportRunRows, findRunId } from "@/db/queries/exportRun";

/** The run as `assumeprobe export` prints it, as a JSONL download streamed in chunks. */
export async function GET(_req: Request, ctx: { params: Promise<{ name: string }> }) {
  const name = decodeURIComponent((await ctx.params).name);
  const db = getDb();
  const runId = findRunId(db, name);
  if (runId === undefined) return new Response(`unknown run "${name}"\n`, { status: 404 });
  const rows = exportRunRows(db, runId);
  const enc = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const parts: string[] = [];
      for (let i = 0; i < 2000; i++) {
        const r = rows.next();
        if (r.done) {
          if (parts.length) controller.enqueue(enc.encode(parts.join("")));
          controller.close();
          return;
        }
        parts.push(`${JSON.stringify(r.value)}\n`);
      }
      controller.enqueue(enc.encode(parts.join("")));
    },
    cancel() {
      rows.return(undefined);
    },
  });
  const file = name.replace(/[^A-Za-z0-9._-]+/g, "_");
  return new Response(stream, {
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="${file}.jsonl"`,
    },
  });
}
