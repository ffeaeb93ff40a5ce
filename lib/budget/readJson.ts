/**
 * Reads JSON text to a budget: the entries it keeps are parsed, every other one is only scanned
 * for its end (and counted), so the work is the budget's plus one pass over the characters, never
 * an allocation per key. `JSON.parse` of one object of 500,000 keys takes ~0.8 s and hundreds of
 * MB here; passing over its 6 MB takes ~45 ms, in slices between which other requests run
 * (`readJson`), so no read blocks the event loop for long.
 *
 * The reader is a generator: it pauses every few thousand characters or entries; `readJson`
 * resumes it across event-loop turns, `readJsonSync` runs it through (for short texts only).
 * Values match `JSON.parse` (strings and numbers are decoded by it, `__proto__` is an own key);
 * passed-over parts are scanned for structure, not validated. With `prefix`, the text may be cut
 * off anywhere: its end closes every open container with an unknown total.
 */
import { boundValue } from "./boundValue";
import { CUT, type Cut, cutOf, fitsWhole, type JsonBudget } from "./jsonBudget";
import { Reader, run } from "./reader";

export interface ReadResult {
  value: unknown;
  /** Some entry was left out (or the prefix ended inside the value). */
  cut: boolean;
  /** Where each top-level key (or array index) named in `spans` has its value: [start, end) in the text. */
  spans: Map<string, [number, number]>;
}

export interface ReadOptions {
  /** The text may stop before the value ends (a prefix): its end is a cut, not an error. */
  prefix?: boolean;
  /** Top-level keys whose value's position to report (for downloads and re-reads of one part). */
  spans?: ReadonlySet<string>;
}

/** How long `readJson` runs before it lets other work in. */
const SLICE_MS = 8;
/** `readJsonSync` refuses longer texts: they could block the event loop. */
export const SYNC_MAX_CHARS = 256 * 1024;

/** Texts this short are parsed whole and then bounded: the same value, faster than reading. */
const SMALL_CHARS = 4096;

function whole(text: string, budget: JsonBudget, opts: ReadOptions): ReadResult | null {
  if (opts.spans || opts.prefix) return null;
  if (fitsWhole(text.length, budget)) return { value: JSON.parse(text), cut: false, spans: new Map() };
  if (text.length > SMALL_CHARS) return null;
  const value = boundValue(JSON.parse(text), budget);
  return { value, cut: hasCut(value), spans: new Map() };
}

function hasCut(v: unknown): boolean {
  if (typeof v !== "object" || v === null) return false;
  if (cutOf(v)) return true;
  return Object.values(v).some(hasCut);
}

/**
 * Reads `text` to `budget`, letting other work run every few milliseconds. Throws a SyntaxError
 * when a kept part is not JSON.
 */
export async function readJson(
  text: string,
  budget: JsonBudget,
  opts: ReadOptions = {},
): Promise<ReadResult> {
  const fast = whole(text, budget, opts);
  if (fast) return fast;
  const g = run(new Reader(text, budget, opts));
  let deadline = performance.now() + SLICE_MS;
  for (;;) {
    const s = g.next();
    if (s.done) return s.value;
    if (performance.now() > deadline) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      deadline = performance.now() + SLICE_MS;
    }
  }
}

/** `readJson` in one go, for texts of at most SYNC_MAX_CHARS (a column's prefix, say). */
export function readJsonSync(text: string, budget: JsonBudget, opts: ReadOptions = {}): ReadResult {
  if (text.length > SYNC_MAX_CHARS) {
    throw new RangeError(`readJsonSync reads at most ${SYNC_MAX_CHARS} characters; use readJson`);
  }
  const fast = whole(text, budget, opts);
  if (fast) return fast;
  const g = run(new Reader(text, budget, opts));
  for (;;) {
    const s = g.next();
    if (s.done) return s.value;
  }
}

export { CUT, type Cut };
