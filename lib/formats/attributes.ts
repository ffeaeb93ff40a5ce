import { isObject } from "../isObject";

/**
 * Span attributes as one flat map of dotted keys to scalar values, whatever form they came in:
 * OTLP's flat keys (`llm.output_messages.0.message.content`), a structured value under a key
 * (an OTLP array or kvlist, a Phoenix nested object), or a mix. Arrays take their indexes as
 * key parts, as OpenInference and OpenLLMetry flatten them. The first writer of a key wins.
 */
export function flattenAttributes(attrs: Record<string, unknown>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const walk = (prefix: string, v: unknown, depth: number) => {
    if (depth > 32) return;
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        walk(`${prefix}.${i}`, x, depth + 1);
      });
      return;
    }
    if (isObject(v)) {
      for (const k of Object.keys(v)) walk(prefix === "" ? k : `${prefix}.${k}`, v[k], depth + 1);
      return;
    }
    if (!out.has(prefix)) out.set(prefix, v);
  };
  for (const k of Object.keys(attrs)) {
    const v = attrs[k];
    // Message lists are kept whole too (GenAI's `gen_ai.output.messages`), beside their flat keys.
    if (typeof v === "object" && v !== null && !out.has(k)) out.set(k, v);
    walk(k, v, 0);
  }
  return out;
}

/** A string attribute, when it is a non-empty string. */
export function str(attrs: Map<string, unknown>, key: string): string | null {
  const v = attrs.get(key);
  return typeof v === "string" && v !== "" ? v : null;
}

/** The indexes N present under `prefix.N.` (sorted), e.g. the completions of a legacy span. */
export function indexesUnder(attrs: Map<string, unknown>, prefix: string): number[] {
  const found = new Set<number>();
  const p = `${prefix}.`;
  for (const k of attrs.keys()) {
    if (!k.startsWith(p)) continue;
    const rest = k.slice(p.length);
    const dot = rest.indexOf(".");
    const head = dot === -1 ? rest : rest.slice(0, dot);
    if (/^\d{1,6}$/.test(head)) found.add(Number(head));
  }
  return [...found].sort((a, b) => a - b);
}

/** A value that may be JSON in a string (a message list, a tool's schema), parsed; else as it is. */
export function jsonValue(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const t = v.trim();
  if (!(t.startsWith("{") || t.startsWith("["))) return v;
  try {
    return JSON.parse(t);
  } catch {
    return v;
  }
}
