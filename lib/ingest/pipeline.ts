import type { Readable } from "node:stream";
import type { Probe } from "../probe/schema";
import { describeIssues, ProbeSchema } from "../probe/schema";
import { type PreparedError, type PreparedTrace, prepareError, prepareTrace } from "./prepare";
import { chunksOf } from "./readSource";
import { DEFAULT_MAX_RECORD_BYTES, RecordSplitter, type SplitRecord } from "./splitRecords";
import { interpretRecord, type RecordDefaults } from "./traceRecord";
import { convertWhen2Call, WHEN2CALL_RUN } from "./when2call";

export type IngestFormat = "trace" | "when2call";

export interface IngestOptions {
  /** Probe for records that name none (default schedule_window). */
  probe: string;
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
  /** Bytes, when known, for progress. */
  size?: number;
}

export interface IngestError {
  file: string;
  line: number;
  reason: string;
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
}

export interface SourceFailure {
  file: string;
  /** Why reading stopped. */
  reason: string;
  /** Whole lines read before it stopped: every record that ended by then is counted and kept. */
  lines: number;
}

/** "REASON (after line N); the records before it were kept", for the CLI and the upload page. */
export function describeFailure(f: SourceFailure): string {
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
  saveProbe(probe: Probe, origin: string): { version: number };
  beginBatch(origin: string, files: string[]): number;
  /** Writes traces and errors in one transaction; one outcome per trace, in order. */
  write(batchId: number, traces: PreparedTrace[], errors: PreparedError[]): WriteOutcome[];
  /**
   * Optional: the same write done elsewhere (a writer thread), so the next batch is read and scored
   * while this one is written. Batches are written in the order they are handed over.
   */
  writeAsync?(batchId: number, traces: PreparedTrace[], errors: PreparedError[]): Promise<WriteOutcome[]>;
  finishBatch(batchId: number, summary: IngestSummary, status: "done" | "failed"): void;
}

const MAX_REPORTED_ERRORS = 10_000;
/** Input bytes after which a batch is written, whatever its record count. */
export const BATCH_BYTES = 8 << 20;

/** Reads, scores and stores every record of every source; bad records never stop the good ones. */
export async function ingestSources(
  sources: IngestSource[],
  options: IngestOptions,
  store: IngestStore,
  onProgress?: (p: IngestProgress) => void,
): Promise<IngestSummary> {
  const summary: IngestSummary = {
    records: 0,
    ingested: 0,
    duplicates: 0,
    rejected: 0,
    runs: [],
    errors: [],
  };
  const perRun = new Map<string, number>();
  const batchId = store.beginBatch(
    options.origin,
    sources.map((s) => s.file),
  );
  const batchSize = options.batchSize ?? 2000;
  // Bytes of input per batch too, so big records cannot make a batch (held twice while the writer
  // thread stores it) take hundreds of megabytes.
  let batchBytes = 0;
  const versions = new Map<string, { probe: Probe; version: number }>();
  const lookupRef = (id: string) => {
    let hit = versions.get(id);
    if (!hit) {
      hit = store.probe(id);
      if (hit) versions.set(id, hit);
    }
    return hit;
  };
  const inlineVersions = new Map<string, number>();
  const defaults: RecordDefaults = { probe: options.probe };

  let traces: PreparedTrace[] = [];
  let errors: PreparedError[] = [];
  /** Bad records of the batch being gathered: listed when the batch is settled, as they always were. */
  let readErrors: IngestError[] = [];
  let lastFlush = Date.now();

  const listError = (e: IngestError) => {
    if (summary.errors.length < MAX_REPORTED_ERRORS) summary.errors.push(e);
    else summary.errors_omitted = (summary.errors_omitted ?? 0) + 1;
  };

  /** Counts a batch's outcomes: its bad records first, then what the store turned down. */
  const settle = (batch: PreparedTrace[], badRecords: IngestError[], outcomes: WriteOutcome[]) => {
    for (const e of badRecords) listError(e);
    for (let i = 0; i < batch.length; i++) {
      const o = outcomes[i];
      const t = batch[i];
      if (o === "ingested") {
        summary.ingested++;
        perRun.set(t.runName, (perRun.get(t.runName) ?? 0) + 1);
      } else if (o === "duplicate") {
        summary.duplicates++;
        // A run whose records were all stored before is still named, with 0 new traces.
        if (!perRun.has(t.runName)) perRun.set(t.runName, 0);
      } else {
        summary.rejected++;
        listError({ file: t.file, line: t.line, reason: o.rejected });
      }
    }
  };

  let writeFailed = false;
  /** The batch being written by `store.writeAsync`: it settles to the write's error, or null. */
  let pending: Promise<unknown> | null = null;
  /** Bad records of batches handed over but not settled (listed if a write fails first). */
  const unsettled = new Set<IngestError[]>();
  const drain = async () => {
    if (!pending) return;
    const p = pending;
    pending = null;
    const failure = await p;
    if (failure) throw failure;
  };
  const flush = async () => {
    if (traces.length === 0 && errors.length === 0) return;
    const batch = traces;
    const batchErrors = errors;
    const badRecords = readErrors;
    traces = [];
    errors = [];
    readErrors = [];
    lastFlush = Date.now();
    batchBytes = 0;
    if (!store.writeAsync) {
      let outcomes: WriteOutcome[];
      try {
        outcomes = store.write(batchId, batch, batchErrors);
      } catch (e) {
        writeFailed = true;
        for (const r of badRecords) listError(r);
        throw e;
      }
      settle(batch, badRecords, outcomes);
      return;
    }
    // One batch in flight: wait for the previous write, then hand this one over and go on reading.
    await drain();
    unsettled.add(badRecords);
    pending = store.writeAsync(batchId, batch, batchErrors).then(
      (outcomes) => {
        unsettled.delete(badRecords);
        settle(batch, badRecords, outcomes);
        return null;
      },
      (e: unknown) => {
        writeFailed = true;
        return e ?? new Error("the write failed");
      },
    );
  };

  const reject = (src: IngestSource, defaultRun: string, rec: SplitRecord, reason: string) => {
    errors.push(prepareError(defaultRun, src.file, src.name, rec.line, reason, rec.bytes));
    summary.rejected++;
    readErrors.push({ file: src.file, line: rec.line, reason });
  };

  const acceptRecord = (
    src: IngestSource,
    defaultRun: string,
    rec: SplitRecord,
    value: unknown,
    runParamsOverride?: Record<string, unknown>,
  ) => {
    const r = interpretRecord(value, defaults, (id) => lookupRef(id)?.probe);
    if (!r.ok) return reject(src, defaultRun, rec, r.reason);
    const t = r.record;
    let version: number;
    if (t.probeInline) {
      const key = JSON.stringify(t.probe);
      let v = inlineVersions.get(key);
      if (v === undefined) {
        v = store.saveProbe(t.probe, `inline:${src.name}`).version;
        inlineVersions.set(key, v);
        versions.delete(t.probe.id);
      }
      version = v;
    } else {
      const ref = lookupRef(t.probe.id);
      version = ref ? ref.version : 0;
    }
    traces.push(
      prepareTrace(t, {
        runName: t.run ?? defaultRun,
        defaultRun,
        model: t.model ?? options.model ?? "unknown",
        runParams: runParamsOverride ?? t.params ?? null,
        probe: t.probe,
        probeVersion: version,
        file: src.file,
        source: src.name,
        line: rec.line,
        bytes: rec.bytes,
        text: rec.text,
      }),
    );
  };

  const handleWhen2Call = (src: IngestSource, defaultRun: string, rec: SplitRecord) => {
    const c = convertWhen2Call(rec.value, rec.line);
    if (!c.ok) return reject(src, defaultRun, rec, c.reason);
    const parsed = ProbeSchema.safeParse(c.probe);
    if (!parsed.success) return reject(src, defaultRun, rec, `probe: ${describeIssues(parsed.error)}`);
    const { version } = store.saveProbe(parsed.data, "when2call");
    versions.set(parsed.data.id, { probe: parsed.data, version });
    for (const r of c.records) {
      summary.records++;
      acceptRecord(src, defaultRun, rec, r, { dataset: "NVIDIA When2Call test set (Apache-2.0)" });
    }
    summary.records--; // the When2Call line itself counted once below
  };

  let status: "done" | "failed" = "done";
  try {
    for (const src of sources) {
      const defaultRun = options.run ?? (options.format === "when2call" ? WHEN2CALL_RUN : src.name);
      const splitter = new RecordSplitter(options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES);
      let bytes = 0;
      const progress = () =>
        onProgress?.({
          file: src.file,
          bytes,
          totalBytes: src.size ?? null,
          records: summary.records,
          ingested: summary.ingested,
          duplicates: summary.duplicates,
          rejected: summary.rejected,
        });
      const take = async (recs: SplitRecord[]) => {
        for (const rec of recs) {
          summary.records++;
          if (rec.error !== undefined) reject(src, defaultRun, rec, rec.error);
          else {
            const stored = { traces: traces.length, errors: errors.length };
            try {
              if (options.format === "when2call") handleWhen2Call(src, defaultRun, rec);
              else acceptRecord(src, defaultRun, rec, rec.value);
            } catch (e) {
              // JSON nested thousands deep parses, but cannot be stored or scored without blowing
              // the stack: that record is rejected, the ingest goes on.
              if (!(e instanceof RangeError)) throw e;
              traces.length = stored.traces;
              errors.length = stored.errors;
              reject(
                src,
                defaultRun,
                rec,
                `the record cannot be processed (nested too deeply?): ${e.message}`,
              );
            }
          }
          batchBytes += rec.bytes.length;
          if (traces.length + errors.length >= batchSize || batchBytes >= BATCH_BYTES) await flush();
        }
        if (Date.now() - lastFlush > 500) {
          await flush();
          progress();
        }
      };
      // A failure of the stream itself (not of storing what it gave) ends this source only: what
      // was read before stays, the source is reported as unreadable, and the next one is read.
      const read: { failure?: Error } = {};
      for await (const chunk of chunksOf(src, read)) {
        bytes += chunk.length;
        await take(splitter.push(chunk));
      }
      const failure = read.failure;
      const whole = splitter.lines;
      const tail = splitter.end();
      if (failure) {
        // The reason of a file that vanished after the command checked it names the file: once is enough.
        const named = failure.message.startsWith(`${src.file}: `);
        const reason = named ? failure.message.slice(src.file.length + 2) : failure.message;
        const f: SourceFailure = { file: src.file, reason, lines: whole };
        summary.unreadable = [...(summary.unreadable ?? []), f];
        status = "failed";
        // What the failure cut in two is rejected for that, not for the JSON it left.
        for (const rec of tail)
          if (rec.error !== undefined) rec.error = `cut off where reading stopped: ${f.reason}`;
      }
      await take(tail);
      await flush();
      await drain();
      progress();
    }
  } catch (e) {
    status = "failed";
    // Something other than reading failed: store what was read unless a write is what failed.
    if (!writeFailed) {
      await flush();
      await drain();
    }
    for (const bad of unsettled) for (const r of bad) listError(r);
    for (const r of readErrors) listError(r);
    throw e;
  } finally {
    summary.runs = [...perRun].map(([name, ingested]) => ({ name, ingested }));
    // Bad records in reading order (those the store turned down are settled after a batch's others).
    const order = new Map(sources.map((src, i) => [src.file, i]));
    summary.errors.sort((a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0) || a.line - b.line);
    store.finishBatch(batchId, summary, status);
  }
  return summary;
}
