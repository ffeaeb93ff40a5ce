/**
 * The writer thread of `assumeprobe ingest` (see threadedIngestStore.ts): it owns a second
 * connection to the database and writes each batch it is handed, in order, one transaction per
 * batch, while the main thread reads and scores the next one. Bundled as dist/ingest-writer.mjs.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { PreparedError } from "../../lib/ingest/prepare";
import { openDb } from "../client";
import { createTraceWriter } from "./ingestStore";
import {
  type PackedOriginalsTransfer,
  type PackedTrace,
  unpackError,
  unpackOriginalsTransfer,
  unpackTrace,
} from "./ingestTransfer";

export interface WriteRequest {
  seq: number;
  batchId: number;
  traces: PackedTrace[];
  errors: PreparedError[];
  /** The traces' originals, packed on the reading thread (the tuples carry none). */
  originals: PackedOriginalsTransfer;
}

export type WriteReply =
  | { seq: number; outcomes: ReturnType<ReturnType<typeof createTraceWriter>["write"]> }
  | { seq: number; error: { message: string; code?: string; stack?: string } };

const port = parentPort;
if (port) {
  const db = openDb((workerData as { path: string }).path);
  // 16 MB of page cache, not the 64 MB a reading connection gets: the writer appends, and a big
  // cache here only raises the peak memory of a long ingest.
  db.sqlite.pragma("cache_size = -16384");
  const writer = createTraceWriter(db);
  port.on("message", (m: WriteRequest | "close") => {
    if (m === "close") {
      db.sqlite.close();
      port.close();
      return;
    }
    try {
      const outcomes = writer.write(
        m.batchId,
        m.traces.map(unpackTrace),
        m.errors.map(unpackError),
        unpackOriginalsTransfer(m.originals),
      );
      port.postMessage({ seq: m.seq, outcomes } satisfies WriteReply);
    } catch (e) {
      const err = e as Error & { code?: string };
      port.postMessage({
        seq: m.seq,
        error: { message: err?.message ?? String(e), code: err?.code, stack: err?.stack },
      } satisfies WriteReply);
    }
  });
}
