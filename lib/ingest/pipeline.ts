import type { Readable } from "node:stream";
import { chooseFormat, type FormatChoice, readHead, SNIFF_BYTES } from "../formats/detect";
import { langfuseHolds, selectLangfuseObservation } from "../formats/langfuse";
import { OTLP_HOLDS, selectOtlpSpan } from "../formats/otlp";
import { phoenixHolds, selectPhoenixSpan } from "../formats/phoenix";
import { PROMPTFOO_HOLDS, redactResultBytes, selectPromptfooResult } from "../formats/promptfoo";
import type { Lexicon } from "../lexicon/lexicon";
import type { Probe } from "../probe/schema";
import { Batcher } from "./batcher";
import { InspectLogSplitter } from "./inspectSplitter";
import { readInspectZip } from "./inspectZipSource";
import type { PreparedError, PreparedTrace } from "./prepare";
import { chunksOf, fileIsZip } from "./readSource";
import { type RecordOrigin, RecordReader } from "./records";
import { SpanSplitter } from "./spanSplitter";
import { DEFAULT_MAX_RECORD_BYTES, RecordSplitter, type SplitRecord } from "./splitRecords";
import { Spool } from "./spool";
import { Tally } from "./tally";
import { WHEN2CALL_RUN } from "./when2call";

export { BATCH_BYTES } from "./batcher";

/** What `--format` takes: `auto` (the default: told from the content) or one format. */
export type IngestFormat = FormatChoice;

export interface IngestOptions {
  /** Probe for records that name none (default schedule_window). */
  probe: string;
  /**
   * The probe was named (`--probe`): spans of other tools' traces take it; otherwise each is
   * resolved by the tools it was offered or called (DESIGN.md, "Probe resolution").
   */
  probeGiven?: boolean;
  /** Model for records that name none (default unknown). */
  model?: string;
  /** Run for records that name none (default: the source name). */
  run?: string;
  format: IngestFormat;
  maxRecordBytes?: number;
  /** Records per transaction (a batch also ends at BATCH_BYTES of input). */
  batchSize?: number;
  /** Where the ingest came from: cli, upload, demo. */
  origin: string;
}

export interface IngestSource {
  /** What the user named (a path, `-`, an uploaded file's name): used in error reports. */
  file: string;
  /** The source name used in record identity. */
  name: string;
  stream: Readable;
  /** The file on disk, when the source is one: a zip (an Inspect `.eval`) is read there, in place. */
  path?: string;
  /** Bytes, when known, for progress. */
  size?: number;
}

export interface IngestError {
  file: string;
  line: number;
  reason: string;
  /** Where in the line or document: the JSON path of a span (OTLP, Phoenix). */
  path?: string;
}

export interface IngestSummary {
  records: number;
  ingested: number;
  duplicates: number;
  rejected: number;
  /** Every run a record was stored in or already stored in, with its new traces. */
  runs: { name: string; ingested: number }[];
  errors: IngestError[];
  /** Errors past the reporting cap (they are all stored). */
  errors_omitted?: number;
  /**
   * Sources that could not be read to their end (a cut-off gzip file, an I/O error, an upload
   * past the limit): the records read before the failure are counted above and kept. Present
   * only when a source failed.
   */
  unreadable?: SourceFailure[];
  /**
   * What stored records held that was ignored, by line (a recorded label outside the vocabulary).
   * Present only when there is one.
   */
  warnings?: IngestError[];
  /** Warnings past the reporting cap. */
  warnings_omitted?: number;
  /** The format each source was read as, and what in its content said so. */
  formats?: { file: string; format: string; evidence: string }[];
  /** Spans of other tools' traces that are no model generation (tool calls, chains): skipped. */
  spans_skipped?: number;
}

export interface SourceFailure {
  file: string;
  /** Why reading stopped. */
  reason: string;
  /** Whole lines read before it stopped: every record that ended by then is counted and kept. */
  lines: number;
  /** Nothing of it was read: its format could not be told, or contradicts `--format`. */
  unread?: boolean;
}

/** "REASON (after line N); the records before it were kept", for the CLI and the upload page. */
export function describeFailure(f: SourceFailure): string {
  if (f.lines === 0 && f.unread) return f.reason;
  return `${f.reason} (after line ${f.lines}); the records before it were kept`;
}

export interface IngestProgress {
  file: string;
  bytes: number;
  totalBytes: number | null;
  records: number;
  ingested: number;
  duplicates: number;
  rejected: number;
}

export type WriteOutcome = "ingested" | "duplicate" | { rejected: string };

/** Where ingested traces go: the database in production, anything in tests. */
export interface IngestStore {
  probe(id: string): { probe: Probe; version: number } | undefined;
  /**
   * Stores a probe a record brings; `probe` is the definition stored as that version (a probe
   * whose configuration was edited keeps it), which the record is scored with (default: as given).
   */
  saveProbe(probe: Probe, origin: string): { version: number; probe?: Probe };
  /** The shared lexicon records are scored with, read once per ingest (default: none). */
  lexicon?(): Lexicon;
  /** Every probe (current versions): spans of other tools' traces are matched to one by their tools. */
  probes?(): Probe[];
  beginBatch(origin: string, files: string[]): number;
  /** Writes traces and errors in one transaction; one outcome per trace, in order. */
  write(batchId: number, traces: PreparedTrace[], errors: PreparedError[]): WriteOutcome[];
  /**
   * Optional: the same write done elsewhere (a writer thread), so the next batch is read and scored
   * while this one is written. Batches are written in the order they are handed over.
   */
  writeAsync?(batchId: number, traces: PreparedTrace[], errors: PreparedError[]): Promise<WriteOutcome[]>;
  /** Settles the ingest; its rejected records that no good record claimed go to their default run if it exists. */
  finishBatch(batchId: number, summary: IngestSummary, end: BatchEnd): void;
}

/** How an ingest ended, for the store's record of it. */
export interface BatchEnd {
  status: "done" | "failed";
  /** Each source and the run its records default to: where its unclaimed rejected records go. */
  sources: { file: string; defaultRun: string }[];
  /** Why it stopped, when something other than a bad record stopped it. */
  error?: string;
}

/**
 * Reads, scores and stores every record of every source; bad records never stop the good ones.
 * The steps: record the ingest (beginBatch), read each source in turn (readSource: split its
 * bytes into records, turn each into a prepared trace or a rejection, write full batches), then
 * settle the ingest (finishBatch) with its summary, whatever happened.
 */
export async function ingestSources(
  sources: IngestSource[],
  options: IngestOptions,
  store: IngestStore,
  onProgress?: (p: IngestProgress) => void,
): Promise<IngestSummary> {
  const tally = new Tally();
  const batchId = store.beginBatch(
    options.origin,
    sources.map((s) => s.file),
  );
  const batch = new Batcher(store, batchId, tally, options.batchSize ?? 2000);
  const reader = new RecordReader(options, store, batch, tally);
  const end: BatchEnd = { status: "done", sources: [] };
  try {
    for (const src of sources) {
      const at = { src, defaultRun: defaultRunOf(src, options) };
      end.sources.push({ file: src.file, defaultRun: at.defaultRun });
      const failure = await readSource(at, options, reader, batch, tally, onProgress);
      if (failure) end.status = "failed";
    }
  } catch (e) {
    // Something other than reading failed (the store): keep what was read unless a write failed.
    end.status = "failed";
    end.error = e instanceof Error ? e.message : String(e);
    await batch.stop();
    try {
      store.finishBatch(batchId, tally.close(sources), end);
    } catch {
      // The store that failed may refuse this too: the next ingest marks the ingest interrupted.
    }
    throw e;
  }
  store.finishBatch(batchId, tally.close(sources), end);
  return tally.summary;
}

/** Records that name no run go to --run, else When2Call's run or the source name. */
function defaultRunOf(src: IngestSource, options: IngestOptions): string {
  return options.run ?? (options.format === "when2call" ? WHEN2CALL_RUN : src.name);
}

/**
 * The head's first non-blank line is whole JSON: the format can be told now (a JSON Lines file
 * shows its format in its first record), so reading need not run a MiB ahead of scoring.
 */
function firstLineWhole(head: Buffer[]): boolean {
  const joined = head.length === 1 ? head[0] : Buffer.concat(head);
  let start = 0;
  for (;;) {
    const nl = joined.indexOf(0x0a, start);
    if (nl === -1) return false;
    const line = joined
      .subarray(start, nl)
      .toString("utf8")
      .trim()
      .replace(/^\uFEFF/, "");
    if (line !== "") {
      try {
        JSON.parse(line);
        return true;
      } catch {
        return false;
      }
    }
    start = nl + 1;
  }
}

/** An Inspect `.eval` zip being read: `on` once told, its spool when it comes from a stream. */
interface ZipRead {
  on: boolean;
  spool: Spool | null;
}

/** How a source's bytes become records: JSONL lines, or the spans of an OTLP or Phoenix document. */
interface Splitter {
  push(chunk: Buffer): SplitRecord[];
  end(): SplitRecord[];
  readonly lines: number;
}

/**
 * Reads one source to its end: its records into batches, written as they fill. A failure of the
 * stream itself (not of storing what it gave) ends this source only: what was read before stays,
 * the source is reported as unreadable (returned), and the next one is read.
 */
async function readSource(
  at: RecordOrigin,
  options: IngestOptions,
  reader: RecordReader,
  batch: Batcher,
  tally: Tally,
  onProgress?: (p: IngestProgress) => void,
): Promise<SourceFailure | undefined> {
  const { src } = at;
  const maxBytes = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  let splitter: Splitter | null = null;
  let bytes = 0;
  const progress = () => {
    const s = tally.summary;
    onProgress?.({
      file: src.file,
      bytes,
      totalBytes: src.size ?? null,
      records: s.records,
      ingested: s.ingested,
      duplicates: s.duplicates,
      rejected: s.rejected,
    });
  };
  const take = async (recs: SplitRecord[]) => {
    for (const rec of recs) {
      reader.take(at, rec);
      if (batch.counted(rec.bytes.length)) await batch.flush();
    }
    if (batch.stale) {
      await batch.flush();
      progress();
    }
  };
  const read: { failure?: Error } = {};
  // The first bytes are held until the format is told from them, then read like the rest.
  const head: Buffer[] = [];
  let headBytes = 0;
  let refused: string | null = null;
  // An Inspect `.eval` zip is read from its end: from the file itself, or from a spool of the stream.
  const zip: ZipRead = { on: false, spool: null };
  const decide = (): Splitter | null => {
    const chosen = chooseFormat(options.format, readHead(Buffer.concat(head)));
    if ("error" in chosen) {
      refused = chosen.error;
      return null;
    }
    at.format = chosen.format;
    tally.format(src.file, chosen.format, chosen.evidence);
    if (chosen.format === "inspect") {
      if (chosen.inspect === "eval") {
        zip.on = true;
        return null;
      }
      if (chosen.inspect === "log")
        return new InspectLogSplitter(maxBytes, options.model, () => tally.skipped());
    }
    // Each with where its values hold their spans: a value that holds none is rejected, not passed over.
    if (chosen.format === "otlp") return new SpanSplitter(selectOtlpSpan, maxBytes, undefined, OTLP_HOLDS);
    if (chosen.format === "phoenix") {
      const layout = chosen.layout ?? "lines";
      return new SpanSplitter(selectPhoenixSpan(layout), maxBytes, undefined, phoenixHolds(layout));
    }
    if (chosen.format === "promptfoo")
      return new SpanSplitter(selectPromptfooResult, maxBytes, redactResultBytes, PROMPTFOO_HOLDS);
    if (chosen.format === "langfuse") {
      const at = chosen.observations ?? "lines";
      return new SpanSplitter(selectLangfuseObservation(at), maxBytes, undefined, langfuseHolds(at));
    }
    return new RecordSplitter(maxBytes);
  };
  /** A zip from a stream is spooled to a temporary file; one on disk is read in place (false: stop reading the stream). */
  const spoolZip = async (): Promise<boolean> => {
    if (src.path !== undefined && fileIsZip(src.path)) return false;
    const spool = await Spool.create();
    zip.spool = spool;
    for (const h of head.splice(0)) await spool.write(h);
    return true;
  };
  const readZip = async (): Promise<SourceFailure | undefined> => {
    await zip.spool?.close();
    const stopped = read.failure;
    const failed = await readInspectZip(zip.spool?.path ?? (src.path as string), {
      file: src.file,
      maxBytes,
      model: options.model,
      take,
      skip: () => tally.skipped(),
      read: (n) => {
        bytes = n;
        progress();
      },
      stopped: stopped?.message,
    });
    if (failed) tally.unreadable(failed);
    await batch.flush();
    await batch.drain();
    progress();
    return failed;
  };
  try {
    for await (const chunk of chunksOf(src, read)) {
      bytes += chunk.length;
      if (zip.spool) {
        await zip.spool.write(chunk);
        continue;
      }
      if (splitter === null) {
        head.push(Buffer.from(chunk));
        headBytes += chunk.length;
        if (headBytes < SNIFF_BYTES && !firstLineWhole(head)) continue;
        splitter = decide();
        if (zip.on) {
          if (await spoolZip()) continue;
          break;
        }
        if (splitter === null) break;
        for (const h of head.splice(0)) await take(splitter.push(h));
        continue;
      }
      await take(splitter.push(chunk));
    }
    if (splitter === null && refused === null && !zip.on) {
      splitter = decide();
      if (zip.on) await spoolZip();
      if (splitter !== null) for (const h of head.splice(0)) await take(splitter.push(h));
    }
    if (zip.on) return await readZip();
  } finally {
    await zip.spool?.remove();
  }
  if (splitter === null) {
    const failed: SourceFailure = { file: src.file, reason: refused ?? "unreadable", lines: 0, unread: true };
    tally.unreadable(failed);
    progress();
    return failed;
  }
  const whole = splitter.lines;
  const tail = splitter.end();
  let failed: SourceFailure | undefined;
  if (read.failure) {
    // The reason of a file that vanished after the command checked it names the file: once is enough.
    const msg = read.failure.message;
    const reason = msg.startsWith(`${src.file}: `) ? msg.slice(src.file.length + 2) : msg;
    failed = { file: src.file, reason, lines: whole };
    tally.unreadable(failed);
    // What the failure cut in two is rejected for that, not for the JSON it left.
    for (const rec of tail)
      if (rec.error !== undefined) rec.error = `cut off where reading stopped: ${reason}`;
  }
  await take(tail);
  await batch.flush();
  await batch.drain();
  progress();
  return failed;
}
