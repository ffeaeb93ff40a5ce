/**
 * The thread an upload is ingested on (see ingestUpload.ts): its own connection, the whole ingest
 * (gunzip, splitting, scoring, writing) off the server's request thread. The body arrives in
 * chunks from the request thread, each acknowledged once the ingest has taken it, so at most a
 * few chunks wait here. Bundled as dist/ingest-upload.mjs.
 */
import { Readable } from "node:stream";
import { parentPort, workerData } from "node:worker_threads";
import { type IngestOptions, ingestSources } from "../../lib/ingest/pipeline";
import { maybeGunzip } from "../../lib/ingest/readSource";
import { openDb } from "../client";
import { createIngestStore } from "./ingestStore";

/** What the request thread sends: the body's chunks, its end, or why it stopped. */
export type UploadInput = { chunk: Uint8Array } | { end: true } | { error: string };

/** What this thread answers: the ingest's id once it exists, then its summary or why it failed. */
export type UploadReply =
  | { batchId: number }
  | { ack: true }
  | { summary: import("../../lib/ingest/pipeline").IngestSummary }
  | { failed: string };

export interface UploadJob {
  path: string;
  file: string;
  name: string;
  options: IngestOptions;
}

const port = parentPort;
if (port) {
  const job = workerData as UploadJob;
  const queue: UploadInput[] = [];
  let wake: (() => void) | null = null;
  port.on("message", (m: UploadInput) => {
    queue.push(m);
    wake?.();
  });
  async function* body(): AsyncGenerator<Buffer> {
    for (;;) {
      while (queue.length === 0) await new Promise<void>((r) => (wake = r));
      wake = null;
      const m = queue.shift() as UploadInput;
      if ("end" in m) return;
      if ("error" in m) throw new Error(m.error);
      yield Buffer.from(m.chunk.buffer, m.chunk.byteOffset, m.chunk.byteLength);
      port?.postMessage({ ack: true } satisfies UploadReply);
    }
  }
  const db = openDb(job.path);
  const store = createIngestStore(db);
  const run = async () => {
    try {
      const summary = await ingestSources(
        [
          {
            file: job.file,
            name: job.name,
            stream: maybeGunzip(Readable.from(body(), { objectMode: false })),
          },
        ],
        job.options,
        {
          ...store,
          beginBatch(origin, files) {
            const id = store.beginBatch(origin, files);
            port?.postMessage({ batchId: id } satisfies UploadReply);
            return id;
          },
        },
      );
      db.sqlite.pragma("optimize");
      port?.postMessage({ summary } satisfies UploadReply);
    } catch (e) {
      port?.postMessage({ failed: e instanceof Error ? e.message : String(e) } satisfies UploadReply);
    } finally {
      db.sqlite.close();
      port?.close();
    }
  };
  void run();
}
