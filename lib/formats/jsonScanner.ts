/**
 * A streaming scanner of JSON text that finds values by their place in the document, byte for
 * byte: chunks are pushed in, and each value the selector picks comes out as its own bytes (no
 * re-serialisation), with the line it starts on and its JSON path. It holds one picked value at a
 * time (up to a limit), never the document: a 1 GB OTLP document costs the memory of its largest
 * span. A stream may hold one document or many (JSON Lines): top-level values follow each other.
 *
 * It checks the structure (brackets, strings, keys), not the scalars: a picked value is parsed by
 * the caller, which rejects it with its path when it does not parse. After a structural error the
 * scanner reports it and skips to the next line that starts with `{` (the next JSON Lines record).
 */

/** One open object or array: the key last read in an object, the element index in an array. */
export interface Frame {
  type: "o" | "a";
  key: string | null;
  index: number;
}

/** Picks values by the open containers around them (outermost first). */
export type Selector = (stack: readonly Frame[]) => boolean;

export interface ScannedValue {
  /** The value's bytes as they stand in the stream. */
  bytes: Buffer;
  /** 1-based line where the value starts. */
  line: number;
  /** Byte offset of its first byte in the stream. */
  offset: number;
  /** Its JSON path inside its top-level value (its line tells which), e.g. `resourceSpans[0].scopeSpans[0].spans[3]`. */
  path: string;
  /** Why it cannot be read (too big, cut off, broken structure); `bytes` is then what was kept. */
  error?: string;
}

/** Keys are read this deep only (deeper ones never decide a selection or a format). */
const KEY_DEPTH = 8;
const MAX_KEY = 128;

const NL = 0x0a;
const BOM = [0xef, 0xbb, 0xbf];
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

function isSpace(c: number): boolean {
  return c === 0x20 || c === NL || c === 0x0d || c === 0x09;
}

/** The path of the value about to start inside `stack`. */
export function pathOf(stack: readonly Frame[]): string {
  let p = "";
  for (const f of stack) {
    if (f.type === "a") p += `[${f.index}]`;
    else if (f.key !== null)
      p += /^[A-Za-z_$][\w$]*$/.test(f.key) ? `${p === "" ? "" : "."}${f.key}` : `[${JSON.stringify(f.key)}]`;
  }
  return p === "" ? "$" : p;
}

/** The top-level value being read, while nothing in it has been picked (for ScannerOptions.expect). */
interface TopValue {
  line: number;
  offset: number;
  /** Its first keys, to say what it holds. */
  keys: string[];
  /** Its first bytes (up to headBytes), kept as the rejected text. */
  parts: Buffer[];
  size: number;
  array: boolean;
}

interface Capture {
  depth: number;
  line: number;
  offset: number;
  path: string;
  parts: Buffer[];
  size: number;
  tooBig: boolean;
}

export interface ScannerOptions {
  select: Selector;
  /**
   * Where each top-level value holds the values picked (OTLP's `resourceSpans` array): a top-level
   * value in which nothing was picked and no such place was opened is reported (its first bytes
   * kept, `what` named: "holds no resourceSpans"), never passed over without a word (a line of
   * another format in a JSON Lines file).
   */
  expect?: { holds: Selector; what: string };
  /** The largest value kept (a larger one is reported with its first bytes). */
  maxBytes: number;
  /** Called for each key read (with the containers around its value), e.g. to sniff a format. */
  onKey?: (stack: readonly Frame[], key: string) => void;
  /** How much of an oversized value is kept, as its rejected text. */
  headBytes?: number;
}

export class JsonScanner {
  private readonly stack: Frame[] = [];
  private inString = false;
  private escaped = false;
  /** The string being read is a key (at a depth where keys are read). */
  private keyBytes: number[] | null = null;
  private stringIsKey = false;
  /** In an object: a key is expected next (after `{` or `,`). */
  private expectKey = false;
  private line = 1;
  private offset = 0;
  private atLineStart = true;
  /** After a structural error: skipping to the next line that starts with `{`. */
  private skipping = false;
  private capture: Capture | null = null;
  private top: TopValue | null = null;
  private readonly headBytes: number;

  constructor(private readonly opts: ScannerOptions) {
    this.headBytes = Math.min(opts.headBytes ?? 64 * 1024, opts.maxBytes);
  }

  /** Lines completed so far. */
  get lines(): number {
    return this.line - 1;
  }

  /** Feeds one chunk; returns the values it completed (and errors, in order). */
  push(chunk: Buffer): ScannedValue[] {
    const out: ScannedValue[] = [];
    let captureFrom = this.capture ? 0 : -1;
    let topFrom = this.top ? 0 : -1;
    const len = chunk.length;
    for (let i = 0; i < len; i++) {
      let c = chunk[i];
      // The hot path: the plain bytes of a string no one reads (values, deep keys), skipped in a
      // tight loop (most of a trace file is such bytes).
      if (this.inString && !this.escaped && this.keyBytes === null) {
        while (c !== QUOTE && c !== BACKSLASH && c !== NL && ++i < len) c = chunk[i];
        if (i === len) {
          this.atLineStart = false;
          break;
        }
      }
      // A byte-order mark is no part of the document (it may come split across chunks).
      if (this.offset + i < 3 && c === BOM[this.offset + i] && this.stack.length === 0 && !this.inString)
        continue;
      const lineStart = this.atLineStart;
      this.atLineStart = c === NL;
      if (this.skipping) {
        if (lineStart && c === OPEN_BRACE) this.skipping = false;
        else {
          if (c === NL) {
            this.line++;
            continue;
          }
          // On to the line's end: nothing before it is read.
          const nl = chunk.indexOf(NL, i + 1);
          if (nl === -1) break;
          i = nl - 1;
          continue;
        }
      }
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
          this.keyByte(c);
        } else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          if (this.stringIsKey) this.endKey();
        } else if (c === NL) {
          this.fail(out, "a string runs past the end of its line (JSON strings hold no raw line break)");
          captureFrom = -1;
          this.line++;
        } else this.keyByte(c);
        continue;
      }
      if (c === NL) {
        this.line++;
        continue;
      }
      if (isSpace(c)) continue;
      // A `{` in column 0 inside an object starts the next JSON Lines record (as DESIGN.md splits
      // records): the line before it was cut. (Inside a top-level array it is an element.)
      if (lineStart && c === OPEN_BRACE && this.stack.length > 0 && this.stack[0].type === "o") {
        this.fail(
          out,
          "the line is not complete JSON before the next line that starts with {",
          this.line - 1,
        );
        this.skipping = false;
        captureFrom = -1;
      }
      const top = this.stack[this.stack.length - 1];
      if (top?.type === "o" && this.expectKey) {
        if (c === QUOTE) {
          this.inString = true;
          this.stringIsKey = true;
          this.keyBytes = this.stack.length <= KEY_DEPTH ? [] : null;
          continue;
        }
        if (c === CLOSE_BRACE && top.key === null) {
          // An empty object.
          this.expectKey = false;
        } else {
          this.fail(out, `expected a key in quotes, found ${show(c)}`);
          captureFrom = -1;
          continue;
        }
      }
      if (c === COLON) continue;
      if (c === COMMA) {
        if (!top) {
          this.fail(out, "a comma outside any object or array");
          captureFrom = -1;
          continue;
        }
        if (top.type === "a") top.index++;
        else this.expectKey = true;
        continue;
      }
      if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (!top || top.type !== (c === CLOSE_BRACE ? "o" : "a")) {
          this.fail(
            out,
            `${show(c)} closes ${top ? (top.type === "o" ? "an object" : "an array") : "nothing"}`,
          );
          captureFrom = -1;
          continue;
        }
        this.stack.pop();
        this.expectKey = false;
        const cap = this.capture;
        if (cap && cap.depth === this.stack.length) {
          this.take(chunk, captureFrom, i + 1);
          out.push(this.finish(cap));
          this.capture = null;
          captureFrom = -1;
        }
        if (this.top && this.stack.length === 0) {
          this.keepTop(chunk, topFrom, i + 1);
          out.push(this.unpicked(this.top));
          this.top = null;
          topFrom = -1;
        }
        continue;
      }
      // A value starts here.
      if (!top && c !== OPEN_BRACE && c !== OPEN_BRACKET) {
        this.fail(out, `expected a JSON object, found ${show(c)}`);
        captureFrom = -1;
        continue;
      }
      if (this.stack.length === 0 && this.opts.expect) {
        this.top = {
          line: this.line,
          offset: this.offset + i,
          keys: [],
          parts: [],
          size: 0,
          array: c === OPEN_BRACKET,
        };
        topFrom = i;
      }
      if (!this.capture && this.opts.select(this.stack)) {
        this.top = null;
        this.capture = {
          depth: this.stack.length,
          line: this.line,
          offset: this.offset + i,
          path: pathOf(this.stack),
          parts: [],
          size: 0,
          tooBig: false,
        };
        captureFrom = i;
      }
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        this.stack.push({ type: c === OPEN_BRACE ? "o" : "a", key: null, index: 0 });
        this.expectKey = c === OPEN_BRACE;
        if (this.top && this.opts.expect?.holds(this.stack)) this.top = null;
        continue;
      }
      if (c === QUOTE) {
        this.inString = true;
        this.stringIsKey = false;
      }
      // Else a scalar (number, true, false, null): its bytes are checked by whoever parses the value.
    }
    if (this.capture && captureFrom >= 0) this.take(chunk, captureFrom, chunk.length);
    if (this.top) this.keepTop(chunk, topFrom, chunk.length);
    this.offset += chunk.length;
    return out;
  }

  /** Ends the stream: a document cut off inside a value is reported where it stopped. */
  end(): ScannedValue[] {
    if (this.skipping || (this.stack.length === 0 && !this.inString)) return [];
    const out: ScannedValue[] = [];
    const cap = this.capture;
    const where = cap ? cap.path : pathOf(this.stack);
    const reason = `the input ends inside ${where} (line ${this.line}): it is cut off; what came before it was kept`;
    out.push(
      cap
        ? { ...this.finish(cap), error: reason }
        : { bytes: Buffer.alloc(0), line: this.line, offset: this.offset, path: where, error: reason },
    );
    this.capture = null;
    this.top = null;
    this.stack.length = 0;
    return out;
  }

  private keyByte(c: number): void {
    const k = this.keyBytes;
    if (k && this.stringIsKey && k.length < MAX_KEY) k.push(c);
  }

  private endKey(): void {
    const top = this.stack[this.stack.length - 1];
    const bytes = this.keyBytes;
    this.stringIsKey = false;
    this.keyBytes = null;
    this.expectKey = false;
    if (!top) return;
    top.key = bytes ? Buffer.from(bytes).toString("utf8") : "";
    if (bytes) this.opts.onKey?.(this.stack, top.key);
    if (this.top && this.stack.length === 1 && this.top.keys.length <= 8) this.top.keys.push(top.key);
  }

  /** Keeps the first bytes of the top-level value nothing has been picked in yet. */
  private keepTop(chunk: Buffer, from: number, to: number): void {
    const top = this.top;
    if (!top || from < 0 || top.size >= this.headBytes) return;
    const end = Math.min(to, from + this.headBytes - top.size);
    if (end <= from) return;
    top.parts.push(Buffer.from(chunk.subarray(from, end)));
    top.size += end - from;
  }

  /** A top-level value that held nothing the format reads: reported, its first bytes kept. */
  private unpicked(top: TopValue): ScannedValue {
    const keys = top.keys.length > 8 ? `${top.keys.slice(0, 8).join(", ")}, …` : top.keys.join(", ");
    const holds = top.array ? "it is an array" : keys === "" ? "it is empty" : `it holds ${keys}`;
    return {
      bytes: top.parts.length === 1 ? top.parts[0] : Buffer.concat(top.parts),
      line: top.line,
      offset: top.offset,
      path: "$",
      error: `line ${top.line} holds no ${this.opts.expect?.what} (${holds}): nothing in it was read`,
    };
  }

  private take(chunk: Buffer, from: number, to: number): void {
    const cap = this.capture;
    if (!cap || from < 0 || to <= from) return;
    cap.size += to - from;
    if (cap.tooBig) return;
    if (cap.size > this.opts.maxBytes) {
      cap.tooBig = true;
      const kept = Buffer.concat(
        [...cap.parts, chunk.subarray(from, to)],
        Math.min(this.headBytes, cap.size),
      );
      cap.parts = [kept];
      return;
    }
    // Copy: the stream may reuse its chunk.
    cap.parts.push(Buffer.from(chunk.subarray(from, to)));
  }

  private finish(cap: Capture): ScannedValue {
    const bytes = cap.parts.length === 1 ? cap.parts[0] : Buffer.concat(cap.parts);
    const v: ScannedValue = { bytes, line: cap.line, offset: cap.offset, path: cap.path };
    if (cap.tooBig) v.error = `${cap.path} is ${cap.size} bytes, over the limit of ${this.opts.maxBytes}`;
    return v;
  }

  /** A structural error: reported (with the value being read, if any), then on to the next `{` line. */
  private fail(out: ScannedValue[], reason: string, line = this.line): void {
    const cap = this.capture;
    const where = cap ? cap.path : pathOf(this.stack);
    const msg = `not JSON at line ${line}${where === "$" ? "" : `, inside ${where}`}: ${reason}`;
    out.push(
      cap
        ? { ...this.finish(cap), error: msg }
        : { bytes: Buffer.alloc(0), line, offset: this.offset, path: where, error: msg },
    );
    this.capture = null;
    this.top = null;
    this.stack.length = 0;
    this.inString = false;
    this.escaped = false;
    this.stringIsKey = false;
    this.keyBytes = null;
    this.expectKey = false;
    this.skipping = true;
  }
}

function show(c: number): string {
  return c >= 0x20 && c < 0x7f ? `"${String.fromCharCode(c)}"` : `byte 0x${c.toString(16).padStart(2, "0")}`;
}
