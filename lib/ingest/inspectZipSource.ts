import { sampleRecords } from "./inspectSplitter";
import { openInspectZip, ZipUnreadable } from "./inspectZip";
import type { SourceFailure } from "./pipeline";
import type { SplitRecord } from "./splitRecords";

export interface ZipReadOptions {
  /** The source's name in reports. */
  file: string;
  maxBytes: number;
  /** `--model`: for generations neither their model event nor the log's eval names a model of. */
  model?: string;
  /** Takes a sample's records into the ingest (and writes full batches). */
  take(recs: SplitRecord[]): Promise<void>;
  /** A sample with no model generation: skipped and counted. */
  skip(): void;
  /** Progress: compressed bytes read so far. */
  read(bytes: number): void;
  /** Why the stream stopped before its end, when it was spooled and did (an upload past its limit). */
  stopped?: string;
}

/**
 * Reads an Inspect `.eval` log's samples into the ingest, one sample at a time; a failure of the
 * zip as a whole (no central directory) is returned, nothing of it read.
 */
export async function readInspectZip(path: string, o: ZipReadOptions): Promise<SourceFailure | undefined> {
  let zip: Awaited<ReturnType<typeof openInspectZip>>;
  try {
    zip = await openInspectZip(path, o.maxBytes);
  } catch (e) {
    if (!(e instanceof ZipUnreadable)) throw e;
    // A zip cut off by the stream stopping is unreadable for that reason first.
    const reason = o.stopped ? `${o.stopped}; ${e.message}` : e.message;
    return { file: o.file, reason, lines: 0, unread: true };
  }
  try {
    const ctx = { model: zip.model, ...(o.model !== undefined ? { defaultModel: o.model } : {}) };
    let bytes = 0;
    for await (const s of zip.samples()) {
      bytes += s.compressed;
      const recs = sampleRecords(s, ctx, o.maxBytes, (entry, g) => `${entry}:${g}`);
      if (recs === null) o.skip();
      else await o.take(recs);
      o.read(bytes);
    }
  } finally {
    zip.close();
  }
  return undefined;
}
