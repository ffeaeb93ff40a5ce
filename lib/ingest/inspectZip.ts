import yauzl from "yauzl";
import type { SampleAt } from "./inspectSplitter";
import { zipLogModel } from "./inspectSplitter";

/**
 * An Inspect `.eval` log (a zip: `header.json`, `samples/ID_epoch_N.json`, `_journal/start.json`
 * while the log is unfinished, `summaries.json`, `reductions.json`) read from a file with yauzl,
 * which reads the central directory and then each entry on its own: one sample in memory at a
 * time. A zip without its central directory (cut off) cannot be read at all; one entry that
 * cannot be read rejects that sample alone.
 */

/** The zip as a whole cannot be read (its central directory is missing or broken). */
export class ZipUnreadable extends Error {}

const ZSTD = 93;

function open(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      path,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false },
      (err, zip) => {
        if (err) {
          reject(
            new ZipUnreadable(
              `the zip's central directory is missing or broken (${err.message}): the file is cut off or not a whole zip, and an Inspect .eval log cannot be read without it; nothing of it was read`,
            ),
          );
        } else resolve(zip);
      },
    );
  });
}

/**
 * The central directory's entries one at a time (names and places, not contents): each is asked
 * for only when the one before is done with, so a log of a million samples never holds their
 * entries together (yauzl's entries pin parts of the directory they were read from).
 */
async function* entriesOf(zip: yauzl.ZipFile): AsyncGenerator<yauzl.Entry> {
  for (;;) {
    const next = await new Promise<yauzl.Entry | null>((resolve, reject) => {
      const onEntry = (e: yauzl.Entry) => {
        settle();
        resolve(e);
      };
      const onEnd = () => {
        settle();
        resolve(null);
      };
      const onError = (e: Error) => {
        settle();
        reject(
          new ZipUnreadable(
            `the zip's central directory cannot be read: ${e.message}; nothing of it was read`,
          ),
        );
      };
      const settle = () => {
        zip.off("entry", onEntry);
        zip.off("end", onEnd);
        zip.off("error", onError);
      };
      zip.on("entry", onEntry);
      zip.on("end", onEnd);
      zip.on("error", onError);
      zip.readEntry();
    });
    if (next === null) return;
    yield next;
  }
}

/** Why an entry cannot be inflated here, before reading it; null when it can. */
function unreadable(e: yauzl.Entry, maxBytes: number): string | null {
  if (e.isEncrypted()) return "the entry is encrypted";
  if (e.compressionMethod === ZSTD)
    return "the entry is compressed with zstd (method 93), which Node 20 cannot inflate: write the log with deflate (Inspect's default) or unzip and zip it again";
  if (e.compressionMethod !== 0 && e.compressionMethod !== 8)
    return `the entry uses compression method ${e.compressionMethod}, which cannot be inflated here (only stored and deflate)`;
  if (e.uncompressedSize > maxBytes)
    return `the entry is ${e.uncompressedSize} bytes, over the limit of ${maxBytes} (--max-record-bytes)`;
  return null;
}

/** An entry's bytes, or why they cannot be read (never more than `maxBytes` held). */
function readEntry(
  zip: yauzl.ZipFile,
  e: yauzl.Entry,
  maxBytes: number,
): Promise<Buffer | { error: string }> {
  const why = unreadable(e, maxBytes);
  if (why !== null) return Promise.resolve({ error: why });
  return new Promise((resolve) => {
    zip.openReadStream(e, (err, stream) => {
      if (err) return resolve({ error: `the entry cannot be read: ${err.message}` });
      const parts: Buffer[] = [];
      let size = 0;
      let done = false;
      const finish = (r: Buffer | { error: string }) => {
        if (done) return;
        done = true;
        resolve(r);
      };
      stream.on("data", (c: Buffer) => {
        size += c.length;
        // The central directory's size is checked as the entry inflates; this holds whatever it says.
        if (size > maxBytes) {
          stream.destroy();
          finish({ error: `the entry inflates past the limit of ${maxBytes} bytes (--max-record-bytes)` });
        } else parts.push(c);
      });
      stream.on("error", (x: Error) => finish({ error: `the entry cannot be inflated: ${x.message}` }));
      stream.on("end", () => finish(Buffer.concat(parts, size)));
    });
  });
}

/** A sample entry: `samples/…json`. */
const SAMPLE = /^samples\/[^/]+\.json$/;

/** What a `.eval` log holds: the model its eval names, and its samples, read one at a time. */
export interface InspectZip {
  model: string | null;
  /** How many sample entries it has. */
  sampleCount: number;
  samples(): AsyncGenerator<SampleAt & { compressed: number }>;
  close(): void;
}

/**
 * Opens a `.eval` log: its central directory read once for the header (or, unfinished, its
 * journal's start) and the count of samples, keeping no entry; the samples are then read in a
 * second pass over the directory, one entry at a time.
 */
export async function openInspectZip(path: string, maxBytes: number): Promise<InspectZip> {
  const first = await open(path);
  let sampleCount = 0;
  let model: string | null = null;
  try {
    const heads = new Map<string, yauzl.Entry>();
    for await (const e of entriesOf(first)) {
      if (SAMPLE.test(e.fileName)) sampleCount++;
      else if (e.fileName === "header.json" || e.fileName === "_journal/start.json") heads.set(e.fileName, e);
    }
    for (const name of ["header.json", "_journal/start.json"]) {
      const e = heads.get(name);
      if (!e) continue;
      const bytes = await readEntry(first, e, maxBytes);
      if (Buffer.isBuffer(bytes)) {
        try {
          model = zipLogModel(JSON.parse(bytes.toString("utf8")));
        } catch {
          // An unreadable header: the journal's start may still name the model.
        }
      }
      if (model !== null) break;
    }
  } finally {
    first.close();
  }
  let second: yauzl.ZipFile | null = null;
  return {
    model,
    sampleCount,
    async *samples() {
      second = await open(path);
      let n = 0;
      for await (const e of entriesOf(second)) {
        if (!SAMPLE.test(e.fileName)) continue;
        n++;
        const bytes = await readEntry(second, e, maxBytes);
        const at = {
          line: n,
          path: e.fileName,
          end: e.relativeOffsetOfLocalHeader + e.compressedSize,
          compressed: e.compressedSize,
        };
        yield Buffer.isBuffer(bytes)
          ? { ...at, bytes }
          : { ...at, bytes: Buffer.alloc(0), error: `${e.fileName}: ${bytes.error}` };
      }
    },
    close: () => second?.close(),
  };
}
