import type { CompiledProbe } from "../probe/compile";
import { canonicalJson } from "../probe/digest";
import type { Probe } from "../probe/schema";

/**
 * What a change of scoring configuration can move, for one probe world (DESIGN.md, "Tuning the
 * scorer": score only the traces a draft can change). Comparing the probe as it scored a trace
 * with the probe as it would score it now tells which traces can score differently at all:
 * - an ask change (a field's terms, the probe's or the lexicon's, or its rule) can only change a
 *   trace whose response holds one of the changed terms (all the field's terms for a rule
 *   change): that field's ASK or DRIFT, and the ask_and_call flag;
 * - a bait change can only change INJECT reasons and COPY's copied_bait flag, of the call's
 *   fields or the side effect's;
 * - anything else (the world, the tool, the clarify tool, the gate) can change anything.
 * Pure; db/queries/whatIf.ts and db/queries/rescore.ts read the traces it points at.
 */
export interface Footprint {
  /** Every trace may change: read them all. */
  all: boolean;
  /** Per field whose ask test changed: which labels can move (DRIFT to ASK, ASK to DRIFT). */
  ask: Map<string, { fromDrift: boolean; fromAsk: boolean }>;
  /**
   * Lower-cased strings one of which a response (its JSON, lower-cased) must hold for an ask
   * change to touch it; null when the ask changes give no such test (every trace with a text).
   */
  needles: string[] | null;
  /**
   * A needle came from a lexicon term, which matches the folded text (lib/lexicon/fold.ts:
   * `cafe` is found in `café`): a response that is not all ASCII may hold it without the needle.
   */
  folded?: boolean;
  /** Bait changed: INJECT and COPY fields (and side effects) may change reasons and flags. */
  bait: boolean;
}

/** A probe's world, tool and gate: everything but its scoring configuration. */
function worldKey(p: Probe): string {
  const { ask_terms: _a, bait: _b, clarify_tool: _c, ...rest } = p;
  return canonicalJson(rest);
}

/** Whether two definitions differ in more than their scoring configuration. */
export function worldsDiffer(a: Probe, b: Probe): boolean {
  return a !== b && worldKey(a) !== worldKey(b);
}

/**
 * A string every text holding `term` holds (its longest word, without `*`), when the raw JSON of a
 * response can be tested for it: the needle must read the same in JSON (no quote, backslash or
 * control character) and lower-case the same wherever it stands (ASCII only). Null otherwise.
 */
export function needleOf(term: string): string | null {
  const body = term.endsWith("*") ? term.slice(0, -1) : term;
  let best = "";
  for (const w of body.split(" ")) if (w.length > best.length) best = w;
  if (best === "") return null;
  for (let i = 0; i < best.length; i++) {
    const c = best.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return null;
  }
  return best;
}

const pairs = (p: CompiledProbe, f: string): Set<string> => {
  const a = p.ask[f];
  const out = new Set<string>();
  for (const t of a.probeTerms) out.add(`s\u0000${t}`);
  for (const t of a.lexiconTerms) out.add(`w\u0000${t}`);
  // The `*` entry's terms count for every field (by their own rule).
  for (const t of a.anyTerms) out.add(`a\u0000${t}`);
  return out;
};
const termOf = (pair: string) => pair.slice(2);

/** What can move between scoring with `from` and with `to`; null when they score every trace alike. */
export function footprint(from: CompiledProbe, to: CompiledProbe): Footprint | null {
  if (from === to) return null;
  const all: Footprint = { all: true, ask: new Map(), needles: null, bait: true };
  if (worldsDiffer(from.probe, to.probe) || from.clarifyTool !== to.clarifyTool) return all;
  const ask = new Map<string, { fromDrift: boolean; fromAsk: boolean }>();
  const needles = new Set<string>();
  let needleless = false;
  let folded = false;
  const need = (pair: string) => {
    const n = needleOf(termOf(pair));
    if (n === null) needleless = true;
    else needles.add(n);
    if (!pair.startsWith("s")) folded = true;
  };
  for (const f of from.fields) {
    const a = pairs(from, f);
    const b = pairs(to, f);
    const added = [...b].filter((x) => !a.has(x));
    const removed = [...a].filter((x) => !b.has(x));
    const ruleFrom = from.ask[f].rule;
    const ruleTo = to.ask[f].rule;
    const anyFrom = from.ask[f].anyRule;
    const anyTo = to.ask[f].anyRule;
    if (added.length === 0 && removed.length === 0 && ruleFrom === ruleTo && anyFrom === anyTo) continue;
    let fromDrift = added.length > 0;
    let fromAsk = removed.length > 0;
    for (const x of [...added, ...removed]) need(x);
    // Narrower (anywhere → question) can only lose asks; wider can only gain them. A rule change
    // touches the terms it rules: the field's rule its own and the probe's, the `*` rule the `*` terms.
    const ruled = (changedFrom: string, changedTo: string, own: (pair: string) => boolean) => {
      if (changedFrom === changedTo) return;
      if (changedTo === "question") fromAsk = true;
      else fromDrift = true;
      for (const x of new Set([...a, ...b])) if (own(x)) need(x);
    };
    ruled(ruleFrom, ruleTo, (x) => !x.startsWith("a"));
    ruled(anyFrom, anyTo, (x) => x.startsWith("a"));
    ask.set(f, { fromDrift, fromAsk });
  }
  const baitFrom = [...from.bait].sort().join("\u0000");
  const baitTo = [...to.bait].sort().join("\u0000");
  const bait = baitFrom !== baitTo;
  if (ask.size === 0 && !bait) return null;
  return { all: false, ask, needles: needleless ? null : [...needles], folded, bait };
}

/**
 * Whether a stored trace can score differently under the footprint, from its stored labels
 * (`{"field": "LABEL", ...}`), its response JSON and whether its result holds a side effect.
 * A necessary condition only: a trace that passes is scored again to know.
 */
export function mayChange(
  f: Footprint,
  labels: Record<string, string>,
  responseJson: string,
  hasSideEffect: boolean,
): boolean {
  if (f.all) return true;
  if (f.bait) {
    if (hasSideEffect) return true;
    for (const k in labels) if (labels[k] === "INJECT" || labels[k] === "COPY") return true;
  }
  return askMayChange(f, responseJson);
}

const NOT_ASCII = /[\u0080-\uffff]/;

/** Whether the footprint's ask changes can touch a response (its JSON): it holds a changed term. */
export function askMayChange(f: Footprint, responseJson: string): boolean {
  if (f.all) return true;
  if (f.ask.size === 0) return false;
  // No text and no call arguments: nothing an ask term could be found in.
  if (f.needles === null) return !responseJson.startsWith('{"text":null,"tool_calls":[]');
  if (f.folded && NOT_ASCII.test(responseJson)) return true;
  const lower = responseJson.toLowerCase();
  for (const n of f.needles) if (lower.includes(n)) return true;
  return false;
}

/** Whether a field's label can move under the footprint (for a what-if, which counts labels only). */
export function labelMayMove(f: Footprint, field: string, label: string): boolean {
  if (f.all) return true;
  const a = f.ask.get(field);
  if (!a) return false;
  return (a.fromDrift && label === "DRIFT") || (a.fromAsk && label === "ASK");
}
