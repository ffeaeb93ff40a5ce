import { pipeline, Readable, Transform } from "node:stream";
import { getDb } from "@/db/client";
import { createIngestStore } from "@/db/queries/ingestStore";
import { getProbe, syncBuiltinProbes } from "@/db/queries/probes";
import { describeFailure, ingestSources } from "@/lib/ingest/pipeline";
import { maybeGunzip, sourceName } from "@/lib/ingest/readSource";
import { DEFAULT_PROBE_ID } from "@/lib/probe/builtin";
import { describeIssues } from "@/lib/probe/schema";
import { UploadParamsSchema, uploadLimitBytes } from "@/lib/uploadContract";

export const dynamic = "force-dynamic";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** Counts bytes as they stream in and stops the upload past the limit (`exceeded` then says so). */
class UploadLimit extends Transform {
  exceeded = false;
  private seen = 0;

  constructor(private readonly max: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (e?: Error | null, c?: Buffer) => void) {
    this.seen += chunk.length;
    if (this.seen <= this.max) return done(null, chunk);
    this.exceeded = true;
    done(new Error(`the upload is larger than the limit of ${Math.round(this.max / 1048576)} MB`));
  }
}

/**
 * Ingests an uploaded JSONL file through the same code path as `assumeprobe ingest`. A route
 * handler, not a server action: server actions refuse bodies over 1 MB.
 */
export async function POST(req: Request) {
  const url = new URL(req.url);
  const parsed = UploadParamsSchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) return json(400, { error: describeIssues(parsed.error) });
  const p = parsed.data;
  const max = uploadLimitBytes();
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > max) {
    return json(413, {
      error: `the file is ${Math.round(declared / 1048576)} MB, over the upload limit of ${Math.round(max / 1048576)} MB (ASSUMEPROBE_UPLOAD_MAX_MB); use the command line for larger files: npx assumeprobe ingest FILE`,
    });
  }
  if (!req.body) return json(400, { error: "the request has no file in its body" });
  const db = getDb();
  syncBuiltinProbes(db);
  const probe = p.probe ?? DEFAULT_PROBE_ID;
  if (!getProbe(db, probe)) return json(400, { error: `unknown probe "${probe}"` });
  const meter = new UploadLimit(max);
  // pipeline, not pipe: a client that aborts ends the ingest (with what came before) instead of hanging it.
  const body = pipeline(
    Readable.fromWeb(req.body as import("node:stream/web").ReadableStream),
    meter,
    () => {},
  );
  try {
    const summary = await ingestSources(
      [{ file: p.filename, name: sourceName(p.filename), stream: maybeGunzip(body) }],
      { probe, model: p.model, run: p.run, format: p.format, origin: "upload" },
      createIngestStore(db),
    );
    db.sqlite.pragma("optimize");
    const failed = summary.unreadable?.[0];
    if (!failed) return json(200, summary);
    // Cut off (past the limit, a broken gzip stream): the summary of what was kept, and why it stopped.
    return json(meter.exceeded ? 413 : 400, { ...summary, error: describeFailure(failed) });
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    return json(500, { error: `storing the upload failed: ${msg}; the batches written before it were kept` });
  }
}
