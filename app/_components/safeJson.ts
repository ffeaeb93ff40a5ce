/**
 * JSON text of untrusted values, with limits: nesting past `maxDepth` and text past `maxChars`
 * are cut (and said to be), so a 5,000-deep record or a 1 MB string cannot stall the page.
 * Iterative output, recursion bounded by `maxDepth`; never throws (cycles, BigInt, functions).
 */
export interface SafeJsonOptions {
  /** Indent per level; 0 for one line. */
  indent?: number;
  maxDepth?: number;
  maxChars?: number;
  /** Longest string shown in full; longer ones are cut in place. */
  maxString?: number;
}

export interface SafeJsonResult {
  text: string;
  /** Nesting deeper than maxDepth was replaced by a note. */
  depthCut: boolean;
  /** The text reached maxChars and stops there. */
  charsCut: boolean;
  /** Some string was longer than maxString and was shortened. */
  stringCut: boolean;
}

export function safeJson(value: unknown, opts: SafeJsonOptions = {}): SafeJsonResult {
  const indent = opts.indent ?? 2;
  const maxDepth = opts.maxDepth ?? 40;
  const maxChars = opts.maxChars ?? 100_000;
  const maxString = opts.maxString ?? 10_000;
  const parts: string[] = [];
  let size = 0;
  let depthCut = false;
  let charsCut = false;
  let stringCut = false;
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
    const entries: [string | null, unknown][] = isArr
      ? (obj as unknown[]).map((x) => [null, x])
      : Object.entries(obj as Record<string, unknown>);
    if (entries.length === 0) return void emit(isArr ? "[]" : "{}");
    if (level >= maxDepth) {
      depthCut = true;
      return void emit(
        `${isArr ? "[" : "{"} … cut: nested deeper than ${maxDepth} levels ${isArr ? "]" : "}"}`,
      );
    }
    seen.add(obj);
    emit(isArr ? "[" : "{");
    for (let i = 0; i < entries.length && !charsCut; i++) {
      const [k, x] = entries[i];
      emit(nl(level + 1));
      if (k !== null) emit(`${str(k)}:${indent > 0 ? " " : ""}`);
      visit(x, level + 1);
      if (i < entries.length - 1) emit(",");
    }
    emit(nl(level));
    emit(isArr ? "]" : "}");
    seen.delete(obj);
  };

  visit(value, 0);
  return { text: parts.join(""), depthCut, charsCut, stringCut };
}

/** A one-line rendering of a value for tables: strings quoted, so "" and "null" differ from null. */
export function inlineValue(value: unknown, maxChars = 400): SafeJsonResult {
  return safeJson(value, { indent: 0, maxDepth: 6, maxChars, maxString: maxChars });
}
