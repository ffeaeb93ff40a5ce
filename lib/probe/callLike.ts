import type { CompiledProbe } from "./compile";

/**
 * Call-like text: what raises the trace flag `unparsed_call` when no call was taken. Text the
 * scorer reads for ask terms may hold a call the parser did not take (a trailing comma, a cut-off
 * reply, a Python dict, a call written as text with no fence, a fence in a response given
 * explicitly); its keys then read as ask terms and the trace scores ASK. The flag keeps that from
 * hiding. A candidate is
 * - a fenced block: a run of three or more backticks to the next run at least as long (or to the
 *   end of the text), whatever its language tag; or
 * - outside fenced blocks, a JSON-looking object: a `{` whose next character other than white
 *   space is a quote (`"`, or `'` as Python prints dicts), up to its matching `}` (braces inside
 *   quoted strings do not count) or to the end of the text when it never closes. Only the
 *   outermost such object counts; prose braces (`{name}`, code blocks' `{ return x }`) do not
 *   open one.
 * A candidate names the tool or a field when the probe's tool name or a probed field's name occurs
 * in it, ignoring case, not preceded or followed by a letter, digit or `_`.
 *
 * One forward pass: every search resumes where the last one stopped, so megabytes of braces,
 * quotes or backticks stay linear.
 */
export interface CallLikeBlock {
  /** Offsets in the text, end exclusive. */
  start: number;
  end: number;
  kind: "fenced" | "object";
  /** The names (lower-cased) it holds, in the probe's order: tool first, then fields. */
  names: string[];
}

const names = new WeakMap<CompiledProbe, readonly string[]>();

/** The lower-cased names a call-like block can hold: the probe's tool, then its probed fields. */
export function callLikeNames(p: CompiledProbe): readonly string[] {
  let n = names.get(p);
  if (!n) {
    const all = [p.toolName, ...p.fields].filter((x): x is string => !!x).map((x) => x.toLowerCase());
    n = Object.freeze([...new Set(all)].filter((x) => x.trim() !== ""));
    names.set(p, n);
  }
  return n;
}

const BACKTICK = 96;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const DQUOTE = 0x22;
const SQUOTE = 0x27;
const BACKSLASH = 0x5c;

function isWordChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function runEnd(text: string, i: number): number {
  let j = i;
  while (text.charCodeAt(j) === BACKTICK) j++;
  return j;
}

/** The end of the fenced block opening at `at`: after its closing run, or the end of the text. */
function fenceEnd(text: string, at: number): number {
  const open = runEnd(text, at);
  let close = text.indexOf("```", open);
  // A shorter run of backticks inside the block does not close it.
  while (close >= 0 && runEnd(text, close) - close < open - at)
    close = text.indexOf("```", runEnd(text, close));
  return close < 0 ? text.length : runEnd(text, close);
}

/** True when the `{` at `i` opens a quoted key. */
function opensQuotedKey(text: string, i: number): boolean {
  let k = i + 1;
  while (k < text.length && isSpace(text.charCodeAt(k))) k++;
  const c = text.charCodeAt(k);
  return c === DQUOTE || c === SQUOTE;
}

/** The end of the object opening at `i`: after its matching `}`, or the end of the text. */
function objectEnd(text: string, i: number): number {
  let depth = 0;
  let quote = 0;
  for (let k = i; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (quote !== 0) {
      if (c === BACKSLASH) k++;
      else if (c === quote) quote = 0;
    } else if (c === DQUOTE || c === SQUOTE) quote = c;
    else if (c === OPEN) depth++;
    else if (c === CLOSE && --depth === 0) return k + 1;
  }
  return text.length;
}

/**
 * Which names occur in a stretch of lower-cased text, at word boundaries. Stretches come in
 * order and never overlap: each name's next occurrence is kept, so no stretch of text is
 * searched twice for the same name.
 */
class NameFinder {
  private readonly next: number[];
  constructor(
    private readonly lower: string,
    private readonly names: readonly string[],
  ) {
    this.next = names.map(() => -2);
  }

  /** The names in `[start, end)`; with `first`, at most one. */
  namesIn(start: number, end: number, first: boolean): string[] {
    const found: string[] = [];
    for (let n = 0; n < this.names.length; n++) {
      const name = this.names[n];
      let at = this.next[n];
      while (at !== -1 && at < start) at = this.lower.indexOf(name, at < 0 ? start : at + 1);
      // Occurrences inside a longer word are skipped for good: whether they count never changes.
      while (at !== -1 && at + name.length <= end && !this.bounded(at, name.length)) {
        at = this.lower.indexOf(name, at + 1);
      }
      this.next[n] = at;
      if (at !== -1 && at + name.length <= end) {
        found.push(name);
        if (first) break;
      }
    }
    return found;
  }

  private bounded(at: number, len: number): boolean {
    return !isWordChar(this.lower.charCodeAt(at - 1)) && !isWordChar(this.lower.charCodeAt(at + len));
  }
}

/**
 * The call-like blocks of a text that name the tool or a probed field, in order, at most `limit`.
 * `lowered`: the text is already lower-cased (the scorer's), so names are looked for in it
 * directly.
 */
export function findCallLikeBlocks(
  text: string,
  callNames: readonly string[],
  limit = 50,
  lowered = false,
): CallLikeBlock[] {
  const out: CallLikeBlock[] = [];
  if (callNames.length === 0 || limit <= 0) return out;
  const lower = lowered ? text : text.toLowerCase();
  // Lower-casing keeps offsets except for a few characters (İ becomes two): then each block is
  // lower-cased on its own, still once per character of the text.
  const sameOffsets = lower.length === text.length;
  const finder = sameOffsets ? new NameFinder(lower, callNames) : null;
  const namesIn = (start: number, end: number, first: boolean): string[] => {
    if (finder) return finder.namesIn(start, end, first);
    const part = text.slice(start, end).toLowerCase();
    return new NameFinder(part, callNames).namesIn(0, part.length, first);
  };
  const first = limit === 1;
  let pos = 0;
  let fence = text.indexOf("```");
  let brace = text.indexOf("{");
  while (pos < text.length && (fence >= 0 || brace >= 0)) {
    if (fence >= 0 && fence < pos) fence = text.indexOf("```", pos);
    if (brace >= 0 && brace < pos) brace = text.indexOf("{", pos);
    let start: number;
    let end: number;
    let kind: CallLikeBlock["kind"];
    if (fence >= 0 && (brace < 0 || fence < brace)) {
      start = fence;
      end = fenceEnd(text, fence);
      kind = "fenced";
    } else if (brace >= 0) {
      if (!opensQuotedKey(text, brace)) {
        pos = brace + 1;
        continue;
      }
      start = brace;
      end = objectEnd(text, brace);
      kind = "object";
    } else break;
    pos = end;
    const found = namesIn(start, end, first);
    if (found.length > 0) {
      out.push({ start, end, kind, names: found });
      if (out.length >= limit) break;
    }
  }
  return out;
}

/** True when a lower-cased text holds a call-like block naming one of the names (the scorer's test). */
export function hasCallLikeBlock(lower: string, callNames: readonly string[]): boolean {
  if (callNames.length === 0) return false;
  if (lower.indexOf("{") < 0 && lower.indexOf("```") < 0) return false;
  let named = false;
  for (const n of callNames) {
    if (lower.includes(n)) {
      named = true;
      break;
    }
  }
  return named && findCallLikeBlocks(lower, callNames, 1, true).length > 0;
}

/** What a call-like block holds, for the trace page: why the parser did not take it as a call. */
export type BlockReading =
  | { kind: "not_json"; error: string }
  | { kind: "not_call" }
  | { kind: "call" }
  | { kind: "too_large" };

const MAX_READ = 256 * 1024;

/** The JSON text of a block: a fence's body without its language tag, or the object itself. */
function blockBody(text: string, b: CallLikeBlock): string {
  if (b.kind === "object") return text.slice(b.start, b.end);
  const open = runEnd(text, b.start);
  let end = b.end;
  while (end > open && text.charCodeAt(end - 1) === BACKTICK) end--;
  const body = text.slice(open, end).trimStart();
  // A language tag (on the fence's line, before the body or the JSON itself) is not the body.
  return body.startsWith("{") ? body : body.replace(/^[A-Za-z0-9_+.-]+/, "");
}

/** Reads a call-like block as JSON: does not parse (and why), parses but is no call, or is a call. */
export function readCallLikeBlock(text: string, b: CallLikeBlock): BlockReading {
  const body = blockBody(text, b).trim();
  if (body.length > MAX_READ) return { kind: "too_large" };
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch (e) {
    return { kind: "not_json", error: (e as Error).message };
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return { kind: "not_call" };
  const o = v as Record<string, unknown>;
  let args = o.arguments;
  if (typeof args === "string") {
    try {
      args = JSON.parse(args);
    } catch {
      return { kind: "not_call" };
    }
  }
  const named = typeof o.name === "string" && o.name.trim() !== "";
  const isArgs = typeof args === "object" && args !== null && !Array.isArray(args);
  return named && isArgs ? { kind: "call" } : { kind: "not_call" };
}
