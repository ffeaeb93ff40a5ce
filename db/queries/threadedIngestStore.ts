/**
 * An ingest store whose writes run on a writer thread (ingestWriterThread.ts) with its own
 * connection, so the command line reads, parses and scores batch N+1 while batch N is written:
 * on two cores, the two halves of ingest overlap instead of taking turns. Everything else (probes,
 * ingest batches) stays on the caller's connection; both connections write through db/write.ts, so
 * the probe versions the main connection stores wait for the writer's batch instead of failing.
 * Only the CLI uses it; an upload runs its whole ingest on a thread of its own (ingestUpload.ts).
 */
import type { IngestStore, WriteOutcome } from "../../lib/ingest/pipeline";
import type { Db } from "../client";
import { startThread } from "../jobs/threads";
import { createBatchStore, createTraceWriter, type TraceWriter } from "./ingestStore";
import { packError, packOriginalsTransfer, packTrace } from "./ingestTransfer";
import type { WriteReply, WriteRequest } from "./ingestWriterThread";
import { packTraceOriginals } from "./originals";

export interface ThreadedIngestStore extends IngestStore {
  /** Stops the writer thread (after the batches handed to it). */
  close(): Promise<void>;
}

/** The threaded store, or null where a writer thread cannot run (an in-memory database, or turned off). */
export function createThreadedIngestStore(db: Db): ThreadedIngestStore | null {
  if (db.path === ":memory:" || process.env.ASSUMEPROBE_INGEST_THREAD === "0") return null;
  // The writer holds a batch or two (at most BATCH_BYTES of input each): a small heap keeps the
  // peak RSS of a big ingest down.
  const worker = startThread(
    "ingest-writer",
    { path: db.path },
    { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 },
  );
  const base = createBatchStore(db);
  const waiting = new Map<number, { resolve: (o: WriteOutcome[]) => void; reject: (e: Error) => void }>();
  let syncWriter: TraceWriter | undefined;
  let seq = 0;
  let dead: Error | null = null;
  const failAll = (e: Error) => {
    dead ??= e;
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
  };
  worker.on("message", (m: WriteReply) => {
    const w = waiting.get(m.seq);
    if (!w) return;
    waiting.delete(m.seq);
    if ("outcomes" in m) w.resolve(m.outcomes);
    else w.reject(Object.assign(new Error(m.error.message), { code: m.error.code }));
  });
  worker.on("error", (e) => failAll(e));
  const exited = new Promise<void>((resolve) =>
    worker.on("exit", (code) => {
      failAll(new Error(`the ingest writer thread stopped (exit code ${code})`));
      resolve();
    }),
  );
  return {
    ...base,
    // The pipeline writes through writeAsync; a synchronous write (never used by it) gets a writer of its own.
    write(batchId, traces, errors) {
      syncWriter ??= createTraceWriter(db);
      return syncWriter.write(batchId, traces, errors);
    },
    writeAsync(batchId, traces, errors) {
      if (dead) return Promise.reject(dead);
      // Originals are compressed here, on the reading thread: the writer thread only stores the
      // blocks, and a block crosses in a fraction of its originals' bytes.
      const req: WriteRequest = {
        seq: ++seq,
        batchId,
        traces: traces.map((t) => packTrace(t, true)),
        errors: errors.map(packError),
        originals: packOriginalsTransfer(packTraceOriginals(traces)),
      };
      return new Promise<WriteOutcome[]>((resolve, reject) => {
        waiting.set(req.seq, { resolve, reject });
        worker.postMessage(req);
      });
    },
    async close() {
      if (!dead) worker.postMessage("close");
      await exited;
    },
  };
}
