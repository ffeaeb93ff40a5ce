import type { IngestError, IngestStore } from "./pipeline";
import type { PreparedError, PreparedTrace } from "./prepare";
import type { Tally } from "./tally";

/** Input bytes after which a batch is written, whatever its record count. */
export const BATCH_BYTES = 8 << 20;
/** A batch gathering for longer than this is written at the next chance (progress, and a tailing reader). */
const BATCH_MS = 500;

export interface BatchMark {
  traces: number;
  errors: number;
  reported: number;
}

/**
 * Gathers prepared records into batches and hands each to the store: one transaction per batch,
 * so a killed ingest leaves whole batches. With `store.writeAsync` one batch is written (on the
 * writer thread) while the next is read and scored.
 */
export class Batcher {
  private traces: PreparedTrace[] = [];
  private errors: PreparedError[] = [];
  /** Bad records of the batch being gathered: listed when the batch is settled. */
  private readErrors: IngestError[] = [];
  /** Bytes of input in the batch: big records cannot make a batch take hundreds of megabytes. */
  private bytes = 0;
  private startedAt = Date.now();
  /** The batch being written by `store.writeAsync`: it settles to the write's error, or null. */
  private pending: Promise<unknown> | null = null;
  /** Bad records of batches handed over but not settled (listed if a write fails first). */
  private readonly unsettled = new Set<IngestError[]>();
  /** A write failed: nothing more is written. */
  writeFailed = false;

  constructor(
    private readonly store: IngestStore,
    private readonly batchId: number,
    private readonly tally: Tally,
    private readonly batchSize: number,
  ) {}

  /** Marks where the batch stands, so a record that fails halfway can be taken back. */
  mark(): BatchMark {
    return { traces: this.traces.length, errors: this.errors.length, reported: this.readErrors.length };
  }

  /** Drops what was added after `mark()`. */
  rewind(m: BatchMark): void {
    this.traces.length = m.traces;
    this.errors.length = m.errors;
    this.readErrors.length = m.reported;
  }

  addTrace(t: PreparedTrace): void {
    this.traces.push(t);
  }

  addError(e: PreparedError, reported: IngestError): void {
    this.errors.push(e);
    this.readErrors.push(reported);
  }

  /** Counts a record's input bytes; true when the batch is full and should be written. */
  counted(bytes: number): boolean {
    this.bytes += bytes;
    return this.traces.length + this.errors.length >= this.batchSize || this.bytes >= BATCH_BYTES;
  }

  /** The batch has been gathering for a while. */
  get stale(): boolean {
    return Date.now() - this.startedAt > BATCH_MS;
  }

  /** Writes the gathered batch (with a writer thread: hands it over, after the previous one is written). */
  async flush(): Promise<void> {
    if (this.traces.length === 0 && this.errors.length === 0) return;
    const batch = this.traces;
    const batchErrors = this.errors;
    const badRecords = this.readErrors;
    this.traces = [];
    this.errors = [];
    this.readErrors = [];
    this.bytes = 0;
    this.startedAt = Date.now();
    if (!this.store.writeAsync) {
      let outcomes: ReturnType<IngestStore["write"]>;
      try {
        outcomes = this.store.write(this.batchId, batch, batchErrors);
      } catch (e) {
        this.writeFailed = true;
        for (const r of badRecords) this.tally.listError(r);
        throw e;
      }
      this.tally.settle(batch, badRecords, outcomes);
      return;
    }
    // One batch in flight: wait for the previous write, then hand this one over and go on reading.
    await this.drain();
    this.unsettled.add(badRecords);
    this.pending = this.store.writeAsync(this.batchId, batch, batchErrors).then(
      (outcomes) => {
        this.unsettled.delete(badRecords);
        this.tally.settle(batch, badRecords, outcomes);
        return null;
      },
      (e: unknown) => {
        this.writeFailed = true;
        return e ?? new Error("the write failed");
      },
    );
  }

  /** Waits for the batch in flight; throws its write's error. */
  async drain(): Promise<void> {
    if (!this.pending) return;
    const p = this.pending;
    this.pending = null;
    const failure = await p;
    if (failure) throw failure;
  }

  /** After a failure: stores what was read unless a write is what failed, and lists every bad record. */
  async stop(): Promise<void> {
    if (!this.writeFailed) {
      try {
        await this.flush();
        await this.drain();
      } catch {
        // The store failed too: the first failure is the one reported.
      }
    }
    for (const bad of this.unsettled) for (const r of bad) this.tally.listError(r);
    this.unsettled.clear();
    for (const r of this.readErrors) this.tally.listError(r);
    this.readErrors = [];
  }
}
