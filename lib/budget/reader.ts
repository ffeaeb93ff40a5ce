/**
 * The reader behind `readJson` (see there): a generator that parses the entries a budget keeps,
 * passes over (and counts) the rest, and pauses every few thousand characters or entries.
 */
import { type JsonBudget, markCut } from "./jsonBudget";
import type { ReadOptions, ReadResult } from "./readJson";

/** How much a reader does between pauses: characters scanned, or entries kept. */
const PAUSE_CHARS = 1 << 16;
const PAUSE_ENTRIES = 512;

/** Character codes the reader looks for. */
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

const LITERALS: [string, unknown][] = [
  ["true", true],
  ["false", false],
  ["null", null],
];

/** The text ended (a prefix was read); `partial` is the value that was being read, as far as it got. */
class EndOfText extends Error {
  constructor(readonly partial?: { value: unknown }) {
    super("end of text");
  }
}

type Pause = Generator<void, unknown, void>;

export class Reader {
  i = 0;
  nodes: number;
  keepLeft: number;
  cut = false;
  nextPause = PAUSE_CHARS;
  entriesSincePause = 0;
  readonly spans = new Map<string, [number, number]>();

  constructor(
    readonly text: string,
    readonly budget: JsonBudget,
    readonly opts: ReadOptions,
  ) {
    this.nodes = budget.nodes;
    this.keepLeft = budget.keepEntries ?? 200;
  }

  fail(what: string): never {
    if (this.i >= this.text.length) {
      if (this.opts.prefix) throw new EndOfText();
      throw new SyntaxError(`JSON ends early: ${what} expected at position ${this.i}`);
    }
    throw new SyntaxError(`${what} expected at position ${this.i} of the JSON text`);
  }

  ws(): number {
    const t = this.text;
    let i = this.i;
    let c = t.charCodeAt(i);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = t.charCodeAt(++i);
    this.i = i;
    return c;
  }

  /** The text ended inside the string token opening at `i`. */
  unclosed(i: number): never {
    this.i = this.text.length;
    if (this.opts.prefix) throw new EndOfText({ value: partial(this.text.slice(i + 1)) });
    return this.fail("a closing quote");
  }

  /** The end of the string token opening at `i` when no escaped quote comes first (the usual case), else -1. */
  quickEnd(i: number): number {
    const j = this.text.indexOf('"', i + 1);
    if (j < 0) return this.unclosed(i);
    return this.text.charCodeAt(j - 1) === BACKSLASH ? -1 : j + 1;
  }

  /** The end of a string token with escaped quotes in it, pausing now and then (it can be megabytes of them). */
  *slowEnd(i: number): Generator<void, number, void> {
    const t = this.text;
    let j = i + 1;
    for (let n = 1; ; n++) {
      j = t.indexOf('"', j);
      if (j < 0) return this.unclosed(i);
      let b = j - 1;
      while (t.charCodeAt(b) === BACKSLASH) b--;
      if ((j - 1 - b) % 2 === 0) return j + 1;
      j++;
      if (n % 4096 === 0) yield;
    }
  }

  decode(start: number, end: number): string {
    const inner = this.text.slice(start + 1, end - 1);
    return inner.indexOf("\\") < 0 ? inner : (JSON.parse(this.text.slice(start, end)) as string);
  }

  /** The string token at the reader, decoded; null when it needs `slowString`. */
  quickString(): string | null {
    const start = this.i;
    const end = this.quickEnd(start);
    if (end < 0) return null;
    this.i = end;
    return this.decode(start, end);
  }

  *slowString(): Generator<void, string, void> {
    const start = this.i;
    const end = yield* this.slowEnd(start);
    this.i = end;
    return this.decode(start, end);
  }

  scalar(): unknown {
    const t = this.text;
    for (const [word, v] of LITERALS) {
      if (t.startsWith(word, this.i)) {
        this.i += word.length;
        return v;
      }
    }
    let j = this.i;
    for (;;) {
      const d = t.charCodeAt(j);
      // digits, + - . e E
      if ((d >= 48 && d <= 57) || d === 43 || d === 45 || d === 46 || d === 101 || d === 69) j++;
      else break;
    }
    if (j === this.i) {
      const rest = t.slice(this.i, this.i + 5);
      if (this.opts.prefix && rest.length < 5 && ["true", "false", "null"].some((w) => w.startsWith(rest))) {
        throw new EndOfText();
      }
      this.fail("a value");
    }
    if (j >= t.length && this.opts.prefix) throw new EndOfText();
    const n = Number(t.slice(this.i, j));
    if (Number.isNaN(n)) this.fail("a number");
    this.i = j;
    return n;
  }

  /**
   * Passes over one value, or (with `rest`) over the remaining entries of the container the
   * reader is inside, to just after its closing bracket. Returns how many entries it passed.
   */
  *skip(rest: boolean): Generator<void, number, void> {
    const t = this.text;
    const n = t.length;
    let i = this.i;
    let depth = rest ? 1 : 0;
    let entries = 0;
    let content = false;
    if (!rest) {
      const c = this.ws();
      i = this.i;
      if (c !== OPEN_BRACE && c !== OPEN_BRACKET) {
        yield* this.pass();
        return 1;
      }
    }
    while (i < n) {
      if (i >= this.nextPause) {
        this.i = i;
        yield;
        this.nextPause = i + PAUSE_CHARS;
      }
      const c = t.charCodeAt(i);
      if (c === QUOTE) {
        const e = this.quickEnd(i);
        i = e >= 0 ? e : yield* this.slowEnd(i);
        content = true;
        continue;
      }
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        depth++;
        content = true;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) {
          this.i = i + 1;
          return rest ? entries + (content ? 1 : 0) : 1;
        }
      } else if (c === COMMA) {
        if (depth === 1) entries++;
      } else if (c > 32 && depth === 1) content = true;
      i++;
    }
    this.i = n;
    return this.fail("the end of a container");
  }

  /** One value at `depth` (0 for the top one). */
  *value(depth: number): Pause {
    const c = this.ws();
    if (c === OPEN_BRACE || c === OPEN_BRACKET) return yield* this.container(c === OPEN_BRACKET, depth);
    if (c === QUOTE) return this.quickString() ?? (yield* this.slowString());
    if (Number.isNaN(c)) this.fail("a value");
    return this.scalar();
  }

  /** Passes over one entry's value: a scalar at once, a container in pausable steps. */
  *pass(): Generator<void, void, void> {
    const c = this.ws();
    if (c === OPEN_BRACE || c === OPEN_BRACKET) yield* this.skip(false);
    else if (c === QUOTE) {
      const e = this.quickEnd(this.i);
      this.i = e >= 0 ? e : yield* this.slowEnd(this.i);
    } else this.scalar();
  }

  *container(isArray: boolean, depth: number): Pause {
    const out: unknown[] | Record<string, unknown> = isArray ? [] : {};
    const close = isArray ? CLOSE_BRACKET : CLOSE_BRACE;
    const b = this.budget;
    const from = depth === 0 ? (b.from ?? 0) : 0;
    const tooDeep = depth >= b.depth;
    const spans = depth === 0 ? this.opts.spans : undefined;
    const keepHere = !isArray && b.keep !== undefined && (b.keepDepth === undefined || b.keepDepth === depth);
    const keep = keepHere ? b.keep : undefined;
    this.i++;
    let index = 0;
    let shown = 0;
    let key: string | null = null;
    /** An entry's value is being read into `out`. */
    let keeping = false;
    try {
      for (let first = true; ; first = false) {
        let c = this.ws();
        if (c === close) {
          this.i++;
          break;
        }
        if (!first) {
          if (c !== COMMA) this.fail(`"," or "${isArray ? "]" : "}"}"`);
          this.i++;
          c = this.ws();
        }
        if (this.i >= this.nextPause) {
          yield;
          this.nextPause = this.i + PAUSE_CHARS;
        }
        const full = tooDeep || shown >= b.entries || this.nodes <= 0;
        // Past the budget with nothing left to look for: pass over the rest at once.
        if (full && index >= from && spans === undefined && (keep === undefined || this.keepLeft <= 0)) {
          index += yield* this.skip(true);
          return this.close(out, index, shown, from);
        }
        key = null;
        // A key is decoded only for an entry that is kept: past the budget, keys are compared
        // where they stand in the text (no string made for each of 500,000 keys).
        let keyStart = -1;
        let keyEnd = -1;
        if (!isArray) {
          if (c !== QUOTE) this.fail("a key");
          keyStart = this.i;
          const e = this.quickEnd(keyStart);
          keyEnd = e >= 0 ? e : yield* this.slowEnd(keyStart);
          this.i = keyEnd;
          if (this.ws() !== COLON) this.fail('":"');
          this.i++;
        }
        this.ws();
        const start = this.i;
        const kept = index >= from && !tooDeep;
        const byBudget = kept && !full;
        const byKeep =
          kept && full && keep !== undefined && this.keepLeft > 0 && this.keyIn(keyStart, keyEnd, keep);
        if (byBudget || byKeep) {
          if (byBudget) this.nodes--;
          else this.keepLeft--;
          if (++this.entriesSincePause >= PAUSE_ENTRIES) {
            this.entriesSincePause = 0;
            yield;
          }
          if (!isArray) key = this.decode(keyStart, keyEnd);
          keeping = true;
          const v = yield* this.value(depth + 1);
          keeping = false;
          if (key === null) (out as unknown[]).push(v);
          else setKey(out as Record<string, unknown>, key, v);
          shown++;
        } else {
          const v0 = this.text.charCodeAt(this.i);
          if (v0 === OPEN_BRACE || v0 === OPEN_BRACKET) yield* this.skip(false);
          else if (v0 === QUOTE) {
            const e = this.quickEnd(this.i);
            this.i = e >= 0 ? e : yield* this.slowEnd(this.i);
          } else this.scalarEnd();
        }
        if (spans !== undefined) {
          const name = isArray ? String(index) : key;
          if (name !== null ? spans.has(name) : this.keyIn(keyStart, keyEnd, spans)) {
            this.spans.set(name ?? this.decode(keyStart, keyEnd), [start, this.i]);
          }
        }
        index++;
      }
    } catch (e) {
      if (!(e instanceof EndOfText)) throw e;
      // The prefix ended inside this container: keep what was read, with an unknown total.
      // A value being kept when the text ended is kept as far as it got.
      if (e.partial && keeping) {
        if (isArray) (out as unknown[]).push(e.partial.value);
        else setKey(out as Record<string, unknown>, key as string, e.partial.value);
        shown++;
      }
      this.cut = true;
      markCut(out, { total: null, shown, from });
      throw new EndOfText({ value: out });
    }
    return this.close(out, index, shown, from);
  }

  /** The key token at [start, end) names one of `keys` (compared in place; decoded only when escaped). */
  keyIn(start: number, end: number, keys: ReadonlySet<string>): boolean {
    const t = this.text;
    for (let j = start + 1; j < end - 1; j++) {
      if (t.charCodeAt(j) === BACKSLASH) return keys.has(this.decode(start, end));
    }
    const len = end - start - 2;
    for (const k of keys) if (k.length === len && t.startsWith(k, start + 1)) return true;
    return false;
  }

  /** Passes over a number or a literal: to the next delimiter. */
  scalarEnd(): void {
    const t = this.text;
    const start = this.i;
    let i = start;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c <= 32 || Number.isNaN(c)) break;
      i++;
    }
    if (i === start) this.fail("a value");
    if (i >= t.length && this.opts.prefix) throw new EndOfText();
    this.i = i;
  }

  close(out: object, total: number, shown: number, from: number): object {
    if (shown < total) {
      this.cut = true;
      markCut(out, { total, shown, from });
    }
    return out;
  }
}

/** The decodable start of a string's body that a prefix cut off. */
function partial(body: string): string {
  const esc = body.lastIndexOf("\\");
  const whole = esc >= 0 && esc >= body.length - 6 ? body.slice(0, esc) : body;
  try {
    return JSON.parse(`"${whole}"`) as string;
  } catch {
    return whole;
  }
}

/** An own property even for `__proto__`, as JSON.parse makes it. */
function setKey(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === "__proto__")
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

export function* run(r: Reader): Generator<void, ReadResult, void> {
  let value: unknown;
  try {
    value = yield* r.value(0);
    if (!Number.isNaN(r.ws())) r.fail("the end of the text");
  } catch (e) {
    if (!(e instanceof EndOfText)) throw e;
    value = e.partial?.value;
    r.cut = true;
  }
  return { value, cut: r.cut, spans: r.spans };
}
