import { JsonScanner, type ScannedValue, type ScannerOptions, type Selector } from "../formats/jsonScanner";
import type { SplitRecord } from "./splitRecords";

/**
 * The spans of an OTLP or Phoenix source as records: each span's own bytes (found by the
 * streaming scanner, never re-serialised), parsed on its own, with its line and JSON path. A span
 * that does not parse, is too big, or is cut off is a rejected record; the others are read.
 */
export class SpanSplitter {
  private readonly scanner: JsonScanner;

  /**
   * `clean`: applied to every value's bytes before anything reads or keeps them (promptfoo's
   * secrets redacted). `expect`: where each top-level value holds its spans, so one that holds
   * none is rejected rather than passed over (ScannerOptions.expect).
   */
  constructor(
    select: Selector,
    maxBytes: number,
    private readonly clean?: (bytes: Buffer) => Buffer,
    expect?: ScannerOptions["expect"],
  ) {
    this.scanner = new JsonScanner({ select, maxBytes, expect });
  }

  get lines(): number {
    return this.scanner.lines;
  }

  push(chunk: Buffer): SplitRecord[] {
    return this.scanner.push(chunk).map((v) => this.toRecord(v));
  }

  end(): SplitRecord[] {
    return this.scanner.end().map((v) => this.toRecord(v));
  }

  private toRecord(v: ScannedValue): SplitRecord {
    return toRecord(this.clean ? { ...v, bytes: this.clean(v.bytes) } : v);
  }
}

function toRecord(v: {
  bytes: Buffer;
  line: number;
  offset: number;
  path: string;
  error?: string;
}): SplitRecord {
  const rec: SplitRecord = { line: v.line, bytes: v.bytes, end: v.offset + v.bytes.length, path: v.path };
  if (v.error !== undefined) {
    rec.error = v.error;
    return rec;
  }
  const text = v.bytes.toString("utf8");
  try {
    rec.value = JSON.parse(text);
    rec.text = text;
  } catch (e) {
    rec.error = `${v.path}: not JSON: ${(e as Error).message}`;
  }
  return rec;
}
