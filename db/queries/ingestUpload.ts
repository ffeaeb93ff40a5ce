/**
 * Ingests an upload on a thread of its own (ingestUploadThread.ts), so a big or hostile file never
 * holds up the dashboard's other requests: this side only hands the body's chunks over, a few at a
 * time (each acknowledged before more are sent), and waits for the summary, which comes only after
 * every record is stored.
 */
import type { IngestSummary } from "../../lib/ingest/pipeline";
import type { Db } from "../client";
import { startThread } from "../jobs/threads";
import { failIngestBatch } from "./ingestBatches";
import type { UploadInput, UploadJob, UploadReply } from "./ingestUploadThread";

/** Chunks handed over and not yet taken by the ingest. */
const IN_FLIGHT = 8;

export type UploadOutcome = { summary: IngestSummary; batchId: number | null } | { failed: string };

/**
 * Runs the ingest of `body` (an iterable that throws when the body stops early: past the limit,
 * cut off, aborted; the ingest then keeps what came before and reports the source as unreadable).
 */
export async function ingestUpload(
  db: Db,
  body: AsyncIterable<Uint8Array>,
  job: Omit<UploadJob, "path">,
): Promise<UploadOutcome> {
  const worker = startThread("ingest-upload", { ...job, path: db.path } satisfies UploadJob);
  let batchId: number | null = null;
  let inFlight = 0;
  let acked: (() => void) | null = null;
  const outcome = new Promise<UploadOutcome>((resolve) => {
    worker.on("message", (m: UploadReply) => {
      if ("batchId" in m) batchId = m.batchId;
      else if ("ack" in m) {
        inFlight--;
        acked?.();
      } else if ("summary" in m) resolve({ summary: m.summary, batchId });
      else resolve(m);
    });
    worker.on("error", (e) => resolve({ failed: `the upload's ingest thread failed: ${e.message}` }));
    worker.on("exit", (code) =>
      resolve({ failed: `the upload's ingest thread stopped (exit code ${code})` }),
    );
  });
  let settled = false;
  void outcome.then(() => {
    settled = true;
    acked?.();
  });
  const send = (m: UploadInput, transfer?: ArrayBuffer[]) => {
    if (!settled) worker.postMessage(m, transfer);
  };
  try {
    for await (const chunk of body) {
      if (settled) break;
      // A copy in a buffer of its own, moved (not cloned) to the thread.
      const own = new Uint8Array(chunk);
      inFlight++;
      send({ chunk: own }, [own.buffer]);
      while (inFlight >= IN_FLIGHT && !settled) await new Promise<void>((r) => (acked = r));
      acked = null;
    }
    send({ end: true });
  } catch (e) {
    send({ error: e instanceof Error ? e.message : String(e) });
  }
  const result = await outcome;
  await worker.terminate();
  // The thread died before it could settle its ingest: say so on its row.
  if ("failed" in result && batchId !== null) failIngestBatch(db, batchId, result.failed);
  return result;
}
