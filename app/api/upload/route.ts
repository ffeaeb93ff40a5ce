import { NextRequest } from "next/server";
import { getDb } from "@/db/client";
import { ingestUpload } from "@/db/queries/ingestUpload";
import { getProbe, syncBuiltinProbes } from "@/db/queries/probes";
import { BodyStopped, declaredLength, megabytes, readBody } from "@/lib/http/requestBody";
import { describeFailure } from "@/lib/ingest/pipeline";
import { sourceName } from "@/lib/ingest/readSource";
import { DEFAULT_PROBE_ID } from "@/lib/probe/builtin";
import { describeIssues } from "@/lib/probe/schema";
import { UploadParamsSchema, uploadLimitBytes } from "@/lib/uploadContract";
import { guardRequest } from "@/proxy";

export const dynamic = "force-dynamic";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/**
 * Ingests an uploaded JSONL file through the same code path as `assumeprobe ingest`, on a thread
 * of its own (db/queries/ingestUpload.ts). A route handler, not a server action: server actions
 * refuse bodies over 1 MB.
 *
 * proxy.ts does not run for this route: a proxy makes Next.js copy the request body into memory
 * before the route sees it, and keep only its first 10 MB (`proxyClientMaxBodySize`). The same
 * access checks (`guardRequest`) run here instead, before the body is read.
 */
export async function POST(req: Request) {
  // The proxy reads the URL, headers and cookies only: a request without the body, which stays unread here.
  const refused = guardRequest(new NextRequest(req.url, { method: req.method, headers: req.headers }));
  if (refused) return refused;
  const url = new URL(req.url);
  const parsed = UploadParamsSchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) return json(400, { error: describeIssues(parsed.error) });
  const p = parsed.data;
  const max = uploadLimitBytes();
  const declared = declaredLength(req.headers);
  if (declared !== null && declared > max) {
    return json(413, {
      error: `the file is ${megabytes(declared)} MB, over the upload limit of ${megabytes(max)} MB (ASSUMEPROBE_UPLOAD_MAX_MB); use the command line for larger files: npx assumeprobe ingest FILE`,
    });
  }
  if (!req.body) return json(400, { error: "the request has no file in its body" });
  const db = getDb();
  syncBuiltinProbes(db);
  const probe = p.probe ?? DEFAULT_PROBE_ID;
  if (!getProbe(db, probe)) return json(400, { error: `unknown probe "${probe}"` });
  // Every byte that arrived before a stop (the limit, a cut-off body, a client gone) reaches the
  // ingest, which keeps each complete line and says where the body stopped.
  let over = false;
  const body = (async function* () {
    try {
      yield* readBody(req.body as ReadableStream<Uint8Array>, {
        max,
        declared,
        limitName: "ASSUMEPROBE_UPLOAD_MAX_MB",
      });
    } catch (e) {
      if (e instanceof BodyStopped) over = e.over;
      throw e;
    }
  })();
  const result = await ingestUpload(db, body, {
    file: p.filename,
    name: sourceName(p.filename),
    options: {
      probe,
      probeGiven: p.probe !== undefined,
      model: p.model,
      run: p.run,
      format: p.format,
      origin: "upload",
    },
  });
  if ("failed" in result) {
    return json(500, {
      error: `storing the upload failed: ${result.failed}; the batches written before it were kept`,
    });
  }
  // The summary, and the ingest's id: /ingests/ID lists it with its errors.
  const summary = { ...result.summary, ingest: result.batchId };
  const failed = summary.unreadable?.[0];
  if (!failed) return json(200, summary);
  // Cut off (past the limit, short of its length, a broken gzip stream): what was kept, and why it stopped.
  return json(over ? 413 : 400, { ...summary, error: describeFailure(failed) });
}

/**
 * Any other method: the same checks first (a cross-site request is refused as such, whatever its
 * method), then 405. The proxy does not run for this route, so Next.js's own 405 would skip them.
 */
async function otherMethod(req: Request) {
  const refused = guardRequest(new NextRequest(req.url, { method: req.method, headers: req.headers }));
  if (refused) return refused;
  return json(405, { error: `${req.method} is not allowed here: upload a file with POST` });
}

export { otherMethod as DELETE, otherMethod as OPTIONS, otherMethod as PATCH, otherMethod as PUT };
