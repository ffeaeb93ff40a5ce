/**
 * Splits a byte stream into JSONL records, as DESIGN.md defines them: a line that parses alone
 * is a record; otherwise a `{` in column 0 opens one that runs until the text gathered parses,
 * or until the next column-0 `{` (then what was gathered is one rejected record). Blank lines
 * are skipped, a byte-order mark and CRLF endings are accepted, and a record past the size limit
 * is rejected without being held in memory.
 *
 * Synchronous and chunk-based: callers push stream chunks and get the records each one completes,
 * which keeps the per-record cost to one `JSON.parse` on the hot path.
 */

export interface SplitRecord {
  /** 1-based line where the record starts. */
  line: number;
  /** The record's bytes: no byte-order mark, no final line ending (inner ones kept). */
  bytes: Buffer;
  /** The parsed value, when it parsed. */
  value?: unknown;
  /** Why the record is rejected, when it is. */
  error?: string;
  /** Byte offset in the source just past this record's last line (its line ending included). */
  end: number;
}

export const DEFAULT_MAX_RECORD_BYTES = 8 * 1024 * 1024;

const NL = 0x0a;
const CR = 0x0d;
const BRACE = 0x7b;

interface Gathering {
  line: number;
  parts: Buffer[];
  size: number;
  tooBig: boolean;
}

export class RecordSplitter {
  private pending: Buffer[] = [];
  private pendingSize = 0;
  /** The current line grew past the limit: drop bytes until its end. */
  private overflowLine = 0;
  private lineNo = 0;
  private offset = 0;
  private first = true;
  private gathering: Gathering | null = null;

  constructor(private readonly maxBytes = DEFAULT_MAX_RECORD_BYTES) {}

  /** Feeds one chunk; returns the records it completed. */
  push(chunk: Buffer): SplitRecord[] {
    const out: SplitRecord[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NL, start);
      if (nl === -1) break;
      this.takeLine(this.joinPending(chunk.subarray(start, nl)), nl - start + 1, out);
      start = nl + 1;
    }
    if (start < chunk.length) this.keepPending(chunk.subarray(start));
    return out;
  }

  /** Ends the stream; returns what the last line and an unterminated record make. */
  end(): SplitRecord[] {
    const out: SplitRecord[] = [];
    if (this.pendingSize > 0 || this.overflowLine > 0) {
      const rest = this.joinPending(Buffer.alloc(0));
      this.takeLine(rest, 0, out);
    }
    this.closeGathering(out, "the record is not complete JSON at the end of the input");
    return out;
  }

  private keepPending(part: Buffer): void {
    if (this.overflowLine > 0) {
      this.overflowLine += part.length;
      return;
    }
    if (this.pendingSize + part.length > this.maxBytes) {
      this.overflowLine = this.pendingSize + part.length;
      this.pending = [];
      this.pendingSize = 0;
      return;
    }
    // Copy: the caller's chunk may be reused by the stream.
    this.pending.push(Buffer.from(part));
    this.pendingSize += part.length;
  }

  private joinPending(tail: Buffer): Buffer {
    if (this.pendingSize === 0) return tail;
    const joined = Buffer.concat([...this.pending, tail]);
    this.pending = [];
    this.pendingSize = 0;
    return joined;
  }

  private takeLine(raw: Buffer, terminatorBytes: number, out: SplitRecord[]): void {
    this.lineNo++;
    let line = raw;
    if (this.overflowLine > 0) {
      const size = this.overflowLine + raw.length;
      this.overflowLine = 0;
      this.offset += size + (terminatorBytes > 0 ? 1 : 0);
      this.closeGathering(out, "the record is not complete JSON before an oversized line");
      out.push({
        line: this.lineNo,
        bytes: Buffer.alloc(0),
        error: `the line is ${size} bytes, over the limit of ${this.maxBytes}`,
        end: this.offset,
      });
      this.first = false;
      return;
    }
    this.offset += raw.length + (terminatorBytes > 0 ? 1 : 0);
    if (raw.length > this.maxBytes) {
      this.overflowLine = raw.length;
      this.offset -= raw.length + (terminatorBytes > 0 ? 1 : 0);
      this.lineNo--;
      this.takeLine(Buffer.alloc(0), terminatorBytes, out);
      return;
    }
    if (this.first) {
      this.first = false;
      if (line.length >= 3 && line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf)
        line = line.subarray(3);
    }
    const content =
      line.length > 0 && line[line.length - 1] === CR ? line.subarray(0, line.length - 1) : line;

    const g = this.gathering;
    if (g) {
      if (content.length > 0 && content[0] === BRACE) {
        this.closeGathering(out, "the record is not complete JSON before the next record starts");
      } else {
        this.gather(g, line, out);
        return;
      }
    }
    if (isBlank(content)) return;
    const parsed = tryParse(content);
    if (parsed.ok) {
      out.push({ line: this.lineNo, bytes: content, value: parsed.value, end: this.offset });
      return;
    }
    if (content[0] === BRACE) {
      this.gathering = { line: this.lineNo, parts: [line], size: line.length, tooBig: false };
      return;
    }
    out.push({ line: this.lineNo, bytes: content, error: `not JSON: ${parsed.error}`, end: this.offset });
  }

  private gather(g: Gathering, line: Buffer, out: SplitRecord[]): void {
    g.size += line.length + 1;
    if (g.size > this.maxBytes) g.tooBig = true;
    if (g.tooBig) return;
    g.parts.push(line);
    if (!endsWithBrace(line)) return;
    const bytes = joinLines(g.parts);
    const parsed = tryParse(bytes);
    if (!parsed.ok) return;
    this.gathering = null;
    out.push({ line: g.line, bytes: stripCr(bytes), value: parsed.value, end: this.offset });
  }

  private closeGathering(out: SplitRecord[], reason: string): void {
    const g = this.gathering;
    if (!g) return;
    this.gathering = null;
    if (g.tooBig) {
      out.push({
        line: g.line,
        bytes: Buffer.alloc(0),
        error: `the record is over the limit of ${this.maxBytes} bytes`,
        end: this.offset,
      });
      return;
    }
    const bytes = stripCr(joinLines(g.parts));
    const why = g.parts.length === 1 ? `not JSON: ${String(tryParseError(bytes))}` : reason;
    out.push({ line: g.line, bytes, error: why, end: this.offset });
  }
}

function joinLines(parts: Buffer[]): Buffer {
  if (parts.length === 1) return parts[0];
  const withNl: Buffer[] = [];
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) withNl.push(NEWLINE);
    withNl.push(parts[i]);
  }
  return Buffer.concat(withNl);
}
const NEWLINE = Buffer.from("\n");

function stripCr(b: Buffer): Buffer {
  return b.length > 0 && b[b.length - 1] === CR ? b.subarray(0, b.length - 1) : b;
}

function isBlank(b: Buffer): boolean {
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (c !== 0x20 && c !== 0x09 && c !== CR) return false;
  }
  return true;
}

function endsWithBrace(b: Buffer): boolean {
  for (let i = b.length - 1; i >= 0; i--) {
    const c = b[i];
    if (c === 0x20 || c === 0x09 || c === CR) continue;
    return c === 0x7d;
  }
  return false;
}

function tryParse(b: Buffer): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(b.toString("utf8")) };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

function tryParseError(b: Buffer): string {
  const r = tryParse(b);
  return r.ok ? "" : r.error;
}
