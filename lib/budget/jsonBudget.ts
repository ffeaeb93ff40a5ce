/**
 * The budget of JSON one page may read and show of a stored record, and how a cut is said.
 *
 * A record within the ingest limits (8 MB, 64 levels) can hold 500,000 keys, a 500,000-element
 * array or a 7 MB string. Everything a page does per node (parse, mark, render) must stop at a
 * budget, and say what it left out, so one record cannot stall the server for everyone.
 *
 * A bounded value is plain JSON: objects and arrays that were cut carry a `Cut` under the CUT
 * symbol (not enumerable, so code that does not know about cuts sees a smaller value). Strings
 * are kept whole: a string costs one allocation, not work per character; what a page shows of it
 * is cut where it is rendered.
 */

export interface JsonBudget {
  /** Entries kept per object or array (the first ones); the rest are counted, not read. */
  entries: number;
  /** Entries kept in all, at every level; past it, every container is kept empty with its count. */
  nodes: number;
  /** Containers nested deeper than this are kept empty, with their count (the top value is level 0). */
  depth: number;
  /** Object keys kept wherever they occur, past `entries` and `nodes` (a probed field, say)... */
  keep?: ReadonlySet<string>;
  /** ...up to this many of them... */
  keepEntries?: number;
  /** ...in the containers at this level only (the top value is level 0); at every level when unset. */
  keepDepth?: number;
  /** Entries of the top-level container passed over before keeping (a page of "show more"). */
  from?: number;
}

/** What was left out of a container: `total` entries, of which `shown` are kept, from entry `from`. */
export interface Cut {
  /** Entries in all; null when the text ended first (a prefix was read). */
  total: number | null;
  shown: number;
  /** Entries passed over before the first one kept. */
  from: number;
}

export const CUT: unique symbol = Symbol("cut");

/** The cut of a container, when part of it was left out. */
export function cutOf(v: unknown): Cut | undefined {
  return typeof v === "object" && v !== null ? (v as { [CUT]?: Cut })[CUT] : undefined;
}

export function markCut(container: object, cut: Cut): void {
  Object.defineProperty(container, CUT, { value: cut, enumerable: false, configurable: true });
}

/** Entries of a cut container that are not shown (null when unknown). */
export function leftOut(cut: Cut): number | null {
  return cut.total === null ? null : cut.total - cut.shown;
}

/** What a trace page shows of one part of a record: tables of up to 100 rows, about 2,000 nodes. */
export const PAGE_BUDGET: JsonBudget = Object.freeze({ entries: 100, nodes: 2_000, depth: 64 });

/** A row of a list (the run page): a few entries, a few hundred nodes. */
export const ROW_BUDGET: JsonBudget = Object.freeze({ entries: 12, nodes: 200, depth: 8 });

/** Characters of one string a page shows before a cut note; the rest is behind a download. */
export const SHOWN_STRING = 20_000;

/**
 * True when a JSON text this short cannot hold more than the budget keeps (each value takes at
 * least two characters of the text with its separator), so parsing it whole is exact.
 */
export function fitsWhole(length: number, budget: JsonBudget): boolean {
  const most = Math.floor(length / 2) + 1;
  return most <= budget.entries && most <= budget.nodes && most <= budget.depth && !budget.from;
}

/** "499,800 more keys", "3 more items", or "more" when the count is unknown. */
export function moreWords(cut: Cut, isArray: boolean): string {
  const n = leftOut(cut);
  const noun = isArray ? "item" : "key";
  if (n === null) return `more ${noun}s (not read)`;
  return `${n.toLocaleString("en-US")} more ${noun}${n === 1 ? "" : "s"}`;
}
