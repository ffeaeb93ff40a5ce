/**
 * Splits a byte stream into JSONL records, as DESIGN.md defines them: a line that parses alone
 * is a record; otherwise a `{` in column 0 opens one that runs until the text gathered parses,
 * or until the next column-0 `{` (then what was gathered is one rejected record). Blank lines
 * are skipped, a byte-order mark and CRLF endings are accepted, and a record past the size limit
 * is rejected without being held in memory.
 *
 * Synchronous and chunk-based: callers push stream chunks and get the records each one completes,
 * which keeps the per-record cost to one `JSON.parse` on the hot path.
 *
 * Linear in the input: a gathered record is scanned once, line by line, for where its opening `{`
 * closes (a brace and string scanner: JSON's strings are the only place a brace does not count),
 * and parsed only then. Text that parses must close there with nothing but whitespace after it,
 * so a record whose close is followed by more text, whose string runs past a line's end, or whose
 * one parse failed can never parse: it is gathered to the next column-0 `{` without another try.
 */

export interface SplitRecord {
  /** 1-based line where the record starts. */
  line: number;
  /** The record's bytes: no byte-order mark, no final line ending (inner ones kept). */
  bytes: Buffer;
  /** The parsed value, when it parsed. */
  value?: unknown;
  /** `bytes` decoded as UTF-8 (what was parsed), when the record is one line. */
  text?: string;
  /** Why the record is rejected, when it is. */
  error?: string;
  /** Byte offset in the source just past this record's last line (its line ending included). */
  end: number;
  /** The record's JSON path inside its line or document, when it is part of one (a span). */
  path?: string;
}

export const DEFAULT_MAX_RECORD_BYTES = 8 * 1024 * 1024;
/** How much of a record past the limit is kept, as its raw text (never more than the limit). */
export const OVERSIZED_HEAD_BYTES = 64 * 1024;

const NL = 0x0a;
const CR = 0x0d;
const BRACE = 0x7b;

interface Gathering {
  line: number;
  parts: Buffer[];
  size: number;
  tooBig: boolean;
  /** Once too big: the record's first bytes, kept as its raw text. */
  head?: Buffer;
  /** The scan so far: open braces and brackets, inside a string, after a backslash in one. */
  depth: number;
  inString: boolean;
  escaped: boolean;
  /** The opening `{` has closed. */
  closed: boolean;
  /** The gathered text can no longer parse, whatever lines follow. */
  dead: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

const SPACE = 0x20;
const TAB = 0x09;

/**
 * Scans one more line of a gathered record (see the file's comment): once over each byte. No byte
 * of a multi-byte UTF-8 character is ASCII, so the delimiters found are the text's.
 */
function scanLine(g: Gathering, line: Buffer): void {
  if (g.dead) return;
  let { depth, inString, escaped, closed } = g;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (closed) {
      if (c !== SPACE && c !== TAB && c !== CR) {
        g.dead = true;
        return;
      }
    } else if (inString) {
      if (escaped) escaped = false;
      else if (c === BACKSLASH) escaped = true;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) closed = true;
    }
  }
  // A JSON string never holds a raw line ending.
  if (inString) g.dead = true;
  g.depth = depth;
  g.inString = inString;
  g.escaped = escaped;
  g.closed = closed;
}

const EMPTY = Buffer.alloc(0);

export class RecordSplitter {
  private pending: Buffer[] = [];
  private pendingSize = 0;
  /** The current line grew past the limit: drop bytes until its end, counting them. */
  private overflowLine = 0;
  /** The first byte of that line (a column-0 `{` starts a record even when it is too big). */
  private overflowFirst = -1;
  /** That line's first bytes, kept as the rejected record's raw text. */
  private overflowHead: Buffer = EMPTY;
  private lineNo = 0;
  private offset = 0;
  private first = true;
  private gathering: Gathering | null = null;

  private readonly headBytes: number;
  /** Bytes handed to JSON.parse for gathered records (a measure of the splitter's work, for tests). */
  gatheredParsedBytes = 0;

  constructor(private readonly maxBytes = DEFAULT_MAX_RECORD_BYTES) {
    this.headBytes = Math.min(OVERSIZED_HEAD_BYTES, maxBytes);
  }

  /** Lines completed so far. */
  get lines(): number {
    return this.lineNo;
  }

  /** Feeds one chunk; returns the records it completed. */
  push(chunk: Buffer): SplitRecord[] {
    const out: SplitRecord[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NL, start);
      if (nl === -1) break;
      if (this.overflowLine > 0) this.takeOversized(nl - start, true, out);
      else this.takeLine(this.joinPending(chunk.subarray(start, nl)), true, out);
      start = nl + 1;
    }
    if (start < chunk.length) this.keepPending(chunk.subarray(start));
    return out;
  }

  /** Ends the stream; returns what the last line and an unterminated record make. */
  end(): SplitRecord[] {
    const out: SplitRecord[] = [];
    if (this.overflowLine > 0) this.takeOversized(0, false, out);
    else if (this.pendingSize > 0) this.takeLine(this.joinPending(Buffer.alloc(0)), false, out);
    this.closeGathering(out, "the record is not complete JSON at the end of the input", this.offset);
    return out;
  }

  private keepPending(part: Buffer): void {
    if (this.overflowLine > 0) {
      this.overflowLine += part.length;
      return;
    }
    if (this.pendingSize + part.length > this.maxBytes) {
      this.overflowFirst = this.pendingSize > 0 ? this.pending[0][0] : part[0];
      this.overflowLine = this.pendingSize + part.length;
      // A copy of the first bytes only (concat stops at the length it is given).
      this.overflowHead = Buffer.concat([...this.pending, part], Math.min(this.headBytes, this.overflowLine));
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

  /**
   * A line past the limit, of which only the size is known. Inside a gathered record it makes the
   * record too big (one rejection, not one per line); elsewhere it is rejected on its own.
   */
  private takeOversized(tailBytes: number, terminated: boolean, out: SplitRecord[]): void {
    this.lineNo++;
    const size = this.overflowLine + tailBytes;
    // A byte-order mark is no part of the record, here as on any first line.
    const head = this.first ? dropBom(this.overflowHead) : this.overflowHead;
    const firstByte = this.overflowFirst;
    this.overflowLine = 0;
    this.overflowFirst = -1;
    this.overflowHead = EMPTY;
    const lineStart = this.offset;
    this.offset += size + (terminated ? 1 : 0);
    this.first = false;
    const g = this.gathering;
    if (g && firstByte !== BRACE) {
      g.size += size + 1;
      this.overgrown(g, head);
      return;
    }
    this.closeGathering(out, "the record is not complete JSON before the next record starts", lineStart);
    out.push({
      line: this.lineNo,
      bytes: head,
      error: `the line is ${size} bytes, over the limit of ${this.maxBytes}`,
      end: this.offset,
    });
  }

  private takeLine(raw: Buffer, terminated: boolean, out: SplitRecord[]): void {
    if (raw.length > this.maxBytes) {
      // A whole line in one chunk can be past the limit: reject it like one that grew there.
      this.overflowLine = raw.length;
      this.overflowFirst = raw[0];
      this.overflowHead = Buffer.from(raw.subarray(0, this.headBytes));
      this.takeOversized(0, terminated, out);
      return;
    }
    this.lineNo++;
    const lineStart = this.offset;
    this.offset += raw.length + (terminated ? 1 : 0);
    let line = raw;
    if (this.first) {
      this.first = false;
      line = dropBom(line);
    }
    const content =
      line.length > 0 && line[line.length - 1] === CR ? line.subarray(0, line.length - 1) : line;

    const g = this.gathering;
    if (g) {
      if (content.length > 0 && content[0] === BRACE) {
        this.closeGathering(out, "the record is not complete JSON before the next record starts", lineStart);
      } else {
        this.gather(g, line, out);
        return;
      }
    }
    if (isBlank(content)) return;
    const parsed = tryParse(content);
    if (parsed.ok) {
      out.push({
        line: this.lineNo,
        bytes: content,
        value: parsed.value,
        text: parsed.text,
        end: this.offset,
      });
      return;
    }
    if (content[0] === BRACE) {
      const g: Gathering = {
        line: this.lineNo,
        parts: [line],
        size: line.length,
        tooBig: false,
        depth: 0,
        inString: false,
        escaped: false,
        closed: false,
        dead: false,
      };
      scanLine(g, line);
      // It closed on its own line, yet did not parse: no later line can mend it.
      if (g.closed) g.dead = true;
      this.gathering = g;
      return;
    }
    out.push({ line: this.lineNo, bytes: content, error: `not JSON: ${parsed.error}`, end: this.offset });
  }

  private gather(g: Gathering, line: Buffer, out: SplitRecord[]): void {
    g.size += line.length + 1;
    if (g.tooBig) return;
    if (g.size > this.maxBytes) {
      this.overgrown(g, line);
      return;
    }
    g.parts.push(line);
    scanLine(g, line);
    if (g.dead || !g.closed) return;
    // Closed, with only whitespace after it: this one parse decides.
    const bytes = joinLines(g.parts);
    this.gatheredParsedBytes += bytes.length;
    const parsed = tryParse(bytes);
    if (!parsed.ok) {
      g.dead = true;
      return;
    }
    this.gathering = null;
    out.push({ line: g.line, bytes: stripCr(bytes), value: parsed.value, end: this.offset });
  }

  /** A gathered record passed the limit: keep its first bytes (with `more`, the line that did it), drop the rest. */
  private overgrown(g: Gathering, more: Buffer): void {
    if (g.tooBig) return;
    g.tooBig = true;
    g.head = joinLines([...g.parts, more], this.headBytes);
    g.parts = [];
  }

  /** Rejects what was gathered; `end` is the offset where the gathered lines stop. */
  private closeGathering(out: SplitRecord[], reason: string, end: number): void {
    const g = this.gathering;
    if (!g) return;
    this.gathering = null;
    if (g.tooBig) {
      out.push({
        line: g.line,
        bytes: g.head ?? EMPTY,
        error: `the record is over the limit of ${this.maxBytes} bytes`,
        end,
      });
      return;
    }
    const bytes = stripCr(joinLines(g.parts));
    const why = g.parts.length === 1 ? `not JSON: ${String(tryParseError(bytes))}` : reason;
    out.push({ line: g.line, bytes, error: why, end });
  }
}

function dropBom(b: Buffer): Buffer {
  return b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? b.subarray(3) : b;
}

/** Lines joined with `\n`; with `limit`, a copy of only the first `limit` bytes. */
function joinLines(parts: Buffer[], limit?: number): Buffer {
  if (parts.length === 1 && limit === undefined) return parts[0];
  const withNl: Buffer[] = [];
  let size = 0;
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) withNl.push(NEWLINE);
    withNl.push(parts[i]);
    size += parts[i].length + (i > 0 ? 1 : 0);
  }
  // concat copies only the length it is given (past the content it would pad with zeros).
  return Buffer.concat(withNl, limit === undefined ? size : Math.min(size, limit));
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

function tryParse(b: Buffer): { ok: true; value: unknown; text: string } | { ok: false; error: string } {
  try {
    const text = b.toString("utf8");
    return { ok: true, value: JSON.parse(text), text };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

function tryParseError(b: Buffer): string {
  const r = tryParse(b);
  return r.ok ? "" : r.error;
}
