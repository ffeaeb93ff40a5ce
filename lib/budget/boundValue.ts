/**
 * An already-parsed value held to a budget: the same cuts `readJson` makes while reading the
 * value's JSON text (entries per container, nodes in all, depth, keys always kept), marked the
 * same way. For values that are in memory anyway (a cached probe's world, say) before a page
 * renders them; a stored column is read with `readJson` instead, which never parses what it cuts.
 */
import { cutOf, type JsonBudget, markCut } from "./jsonBudget";

export function boundValue(value: unknown, budget: JsonBudget): unknown {
  let nodes = budget.nodes;
  let keepLeft = budget.keepEntries ?? 200;
  const visit = (v: unknown, depth: number): unknown => {
    if (typeof v !== "object" || v === null) return v;
    const isArray = Array.isArray(v);
    const from = depth === 0 ? (budget.from ?? 0) : 0;
    const tooDeep = depth >= budget.depth;
    const keys = isArray ? null : Object.keys(v);
    const total = isArray ? (v as unknown[]).length : (keys as string[]).length;
    const out: unknown[] | Record<string, unknown> = isArray ? [] : {};
    const keep = budget.keepDepth === undefined || budget.keepDepth === depth ? budget.keep : undefined;
    let shown = 0;
    for (let i = from; i < total && !tooDeep; i++) {
      const key = keys ? keys[i] : null;
      if (shown >= budget.entries || nodes <= 0) {
        // Past the budget only keys to keep are taken, while their own allowance lasts.
        if (key === null || keep === undefined || keepLeft <= 0) break;
        if (!keep.has(key)) continue;
        keepLeft--;
      } else nodes--;
      const child = visit(
        key === null ? (v as unknown[])[i] : (v as Record<string, unknown>)[key],
        depth + 1,
      );
      if (key === null) (out as unknown[]).push(child);
      else if (key === "__proto__")
        Object.defineProperty(out, key, {
          value: child,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else (out as Record<string, unknown>)[key] = child;
      shown++;
    }
    // A value bounded before keeps its own count of what it left out.
    const prior = cutOf(v);
    if (prior) markCut(out, { total: prior.total, shown, from: prior.from + from });
    else if (shown < total) markCut(out, { total, shown, from });
    return out;
  };
  return visit(value, 0);
}
