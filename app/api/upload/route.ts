import { pipeline, Readable, Transform } from "node:stream";
import { NextRequest } from "next/server";
import { getDb } from "@/db/client";
import { ingestUpload } from "@/db/queries/ingestUpload";
import { getProbe, syncBuiltinProbes } from "@/db/queries/probes";
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
 * Counts bytes as they stream in: stops the upload past the limit (`exceeded` then says so), and
 * fails loudly when the body ends short of the length its request declared, so a body cut off on
 * its way (a client that gave up, anything in between that kept only part of it) is never taken
 * for the whole file.
 */
class UploadMeter extends Transform {
  exceeded = false;
  private seen = 0;

  constructor(
    private readonly max: number,
    private readonly declared: number | null,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (e?: Error | null, c?: Buffer) => void) {
    this.seen += chunk.length;
    if (this.seen <= this.max) return done(null, chunk);
    this.exceeded = true;
    done(new Error(`the upload is larger than the limit of ${Math.round(this.max / 1048576)} MB`));
  }

  override _flush(done: (e?: Error | null) => void) {
    if (this.declared !== null && this.seen !== this.declared)
      return done(
        new Error(`the upload arrived cut off: ${this.seen} of the ${this.declared} bytes it declared`),
      );
    done();
  }
}

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
  const declaredHeader = Number(req.headers.get("content-length") ?? "NaN");
  const declared = Number.isFinite(declaredHeader) ? declaredHeader : null;
  if (declared !== null && declared > max) {
    return json(413, {
      error: `the file is ${Math.round(declared / 1048576)} MB, over the upload limit of ${Math.round(max / 1048576)} MB (ASSUMEPROBE_UPLOAD_MAX_MB); use the command line for larger files: npx assumeprobe ingest FILE`,
    });
  }
  if (!req.body) return json(400, { error: "the request has no file in its body" });
  const db = getDb();
  syncBuiltinProbes(db);
  const probe = p.probe ?? DEFAULT_PROBE_ID;
  if (!getProbe(db, probe)) return json(400, { error: `unknown probe "${probe}"` });
  const meter = new UploadMeter(max, declared);
  // pipeline, not pipe: a client that aborts ends the ingest (with what came before) instead of hanging it.
  const body = pipeline(
    Readable.fromWeb(req.body as import("node:stream/web").ReadableStream),
    meter,
    () => {},
  );
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
  return json(meter.exceeded ? 413 : 400, { ...summary, error: describeFailure(failed) });
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
