/**
 * JSON text of untrusted values for display, with limits: nesting past `maxDepth`, entries past
 * `maxNodes`, strings past `maxString` and text past `maxChars` are cut, and said to be. A value
 * that was already bounded (`readJson`, `boundValue`) shows where its entries were left out, with
 * their count. The work is the budget's, never the value's: no list of all keys is made.
 * Recursion is bounded by `maxDepth`; never throws (cycles, BigInt, functions).
 */
import { cutOf, moreWords } from "./jsonBudget";

export interface SafeJsonOptions {
  /** Indent per level; 0 for one line. */
  indent?: number;
  maxDepth?: number;
  maxChars?: number;
  /** Longest string shown in full; longer ones are cut in place. */
  maxString?: number;
  /** Entries shown in all; past it, containers show only their count. */
  maxNodes?: number;
}

export interface SafeJsonResult {
  text: string;
  /** Nesting deeper than maxDepth was replaced by a note. */
  depthCut: boolean;
  /** The text reached maxChars and stops there. */
  charsCut: boolean;
  /** Some string was longer than maxString and was shortened. */
  stringCut: boolean;
  /** Some object or array shows only part of its entries (the rest is counted in the text). */
  entriesCut: boolean;
}

export function safeJson(value: unknown, opts: SafeJsonOptions = {}): SafeJsonResult {
  const indent = opts.indent ?? 2;
  const maxDepth = opts.maxDepth ?? 40;
  const maxChars = opts.maxChars ?? 100_000;
  const maxString = opts.maxString ?? 10_000;
  let nodes = opts.maxNodes ?? 5_000;
  const parts: string[] = [];
  let size = 0;
  let depthCut = false;
  let charsCut = false;
  let stringCut = false;
  let entriesCut = false;
  const seen = new Set<object>();

  const emit = (s: string): boolean => {
    if (charsCut) return false;
    if (size + s.length > maxChars) {
      parts.push(s.slice(0, Math.max(0, maxChars - size)));
      size = maxChars;
      charsCut = true;
      return false;
    }
    parts.push(s);
    size += s.length;
    return true;
  };

  const str = (s: string): string => {
    if (s.length > maxString) {
      stringCut = true;
      return `${JSON.stringify(s.slice(0, maxString)).slice(0, -1)}… [cut: ${(s.length - maxString).toLocaleString("en-US")} more characters]"`;
    }
    return JSON.stringify(s);
  };

  const nl = (level: number) => (indent > 0 ? `\n${" ".repeat(indent * level)}` : "");

  const visit = (v: unknown, level: number): void => {
    if (charsCut) return;
    if (v === null) return void emit("null");
    switch (typeof v) {
      case "string":
        return void emit(str(v));
      case "number":
        return void emit(Number.isFinite(v) ? String(v) : "null");
      case "boolean":
        return void emit(v ? "true" : "false");
      case "bigint":
        return void emit(String(v));
      case "undefined":
      case "function":
      case "symbol":
        return void emit("null");
      default:
        break;
    }
    const obj = v as object;
    if (seen.has(obj)) return void emit('"[cycle]"');
    const isArr = Array.isArray(obj);
    const keys = isArr ? null : Object.keys(obj);
    const count = isArr ? (obj as unknown[]).length : (keys as string[]).length;
    const cut = cutOf(obj);
    const [open, close] = isArr ? ["[", "]"] : ["{", "}"];
    if (count === 0 && !cut) return void emit(`${open}${close}`);
    if (level >= maxDepth) {
      depthCut = true;
      return void emit(`${open} … cut: nested deeper than ${maxDepth} levels ${close}`);
    }
    seen.add(obj);
    emit(open);
    let shown = 0;
    if (cut && cut.from > 0) {
      emit(`${nl(level + 1)}… ${cut.from.toLocaleString("en-US")} ${isArr ? "items" : "keys"} before these`);
    }
    for (let i = 0; i < count && !charsCut; i++) {
      if (nodes <= 0) break;
      nodes--;
      if (i > 0 || (cut && cut.from > 0)) emit(",");
      emit(nl(level + 1));
      if (keys) emit(`${str(keys[i])}:${indent > 0 ? " " : ""}`);
      visit(keys ? (obj as Record<string, unknown>)[keys[i]] : (obj as unknown[])[i], level + 1);
      shown++;
    }
    const left = cut ? { ...cut, shown: cut.shown - (count - shown) } : { total: count, shown, from: 0 };
    if (left.total === null || left.shown < left.total - left.from) {
      entriesCut = true;
      if (shown > 0 || (cut && cut.from > 0)) emit(",");
      emit(
        `${nl(level + 1)}… ${moreWords({ ...left, total: left.total === null ? null : left.total - left.from }, isArr)}`,
      );
    }
    emit(nl(level));
    emit(close);
    seen.delete(obj);
  };

  visit(value, 0);
  return { text: parts.join(""), depthCut, charsCut, stringCut, entriesCut };
}

/** A one-line rendering of a value for tables: strings quoted, so "" and "null" differ from null. */
export function inlineValue(value: unknown, maxChars = 400): SafeJsonResult {
  return safeJson(value, { indent: 0, maxDepth: 6, maxChars, maxString: maxChars, maxNodes: 100 });
}
