import type { IngestError, IngestSource, IngestSummary, SourceFailure, WriteOutcome } from "./pipeline";
import type { PreparedTrace } from "./prepare";

const MAX_REPORTED_ERRORS = 10_000;

/** An ingest's summary as it is counted: records read, what the store made of them, bad records. */
export class Tally {
  readonly summary: IngestSummary = {
    records: 0,
    ingested: 0,
    duplicates: 0,
    rejected: 0,
    runs: [],
    errors: [],
  };
  /** New traces per run, in the order runs were first seen. */
  private readonly perRun = new Map<string, number>();

  /** Lists a bad record (past the reporting cap only counted as omitted: all are stored). */
  listError(e: IngestError): void {
    const s = this.summary;
    if (s.errors.length < MAX_REPORTED_ERRORS) s.errors.push(e);
    else s.errors_omitted = (s.errors_omitted ?? 0) + 1;
  }

  /** Lists what a stored record held that was ignored (past the reporting cap only counted). */
  private listWarnings(t: PreparedTrace): void {
    const s = this.summary;
    for (const reason of t.warnings ?? []) {
      s.warnings ??= [];
      if (s.warnings.length < MAX_REPORTED_ERRORS) s.warnings.push({ file: t.file, line: t.line, reason });
      else s.warnings_omitted = (s.warnings_omitted ?? 0) + 1;
    }
  }

  /** Counts a written batch's outcomes: its bad records first, then what the store turned down. */
  settle(batch: PreparedTrace[], badRecords: IngestError[], outcomes: WriteOutcome[]): void {
    for (const e of badRecords) this.listError(e);
    for (let i = 0; i < batch.length; i++) {
      const o = outcomes[i];
      const t = batch[i];
      if (o === "ingested") {
        this.summary.ingested++;
        this.listWarnings(t);
        this.perRun.set(t.runName, (this.perRun.get(t.runName) ?? 0) + 1);
      } else if (o === "duplicate") {
        this.summary.duplicates++;
        this.listWarnings(t);
        // A run whose records were all stored before is still named, with 0 new traces.
        if (!this.perRun.has(t.runName)) this.perRun.set(t.runName, 0);
      } else {
        this.summary.rejected++;
        this.listError({ file: t.file, line: t.line, reason: o.rejected });
      }
    }
  }

  /** The format a source is read as. */
  format(file: string, format: string, evidence: string): void {
    const list = this.summary.formats ?? [];
    list.push({ file, format, evidence });
    this.summary.formats = list;
  }

  /** A span that is no model generation. */
  skipped(): void {
    this.summary.spans_skipped = (this.summary.spans_skipped ?? 0) + 1;
  }

  unreadable(f: SourceFailure): void {
    this.summary.unreadable = [...(this.summary.unreadable ?? []), f];
  }

  /** The summary as reported: runs named, bad records in reading order. */
  close(sources: IngestSource[]): IngestSummary {
    const s = this.summary;
    s.runs = [...this.perRun].map(([name, ingested]) => ({ name, ingested }));
    // Those the store turned down are settled after their batch's other bad records: sort them in.
    const order = new Map(sources.map((src, i) => [src.file, i]));
    s.errors.sort((a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0) || a.line - b.line);
    return s;
  }
}
