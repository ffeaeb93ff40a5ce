import type { Label } from "../probe/schema";
import { questionSentences } from "../review/question";
import type { AskRule, LabelledField, SuggestionEvaluator, TermChange } from "./types";

/**
 * A small model of DESIGN.md's rule 1 for tests of the ranking: a field with no call is ASK when
 * one of its terms (a probe's own as substrings, the lexicon's as whole words) is in the text, or
 * under the `question` rule in a question sentence; a field with a call keeps its label.
 */
export interface ModelConfig {
  /** The probe's own terms per field (substrings). */
  probe: Record<string, string[]>;
  /** The lexicon per field (whole words). */
  lexicon: Record<string, { terms: string[]; rule: AskRule }>;
  /** Whether changes go to the probe's terms (else to the lexicon). */
  probeMode?: boolean;
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;
const isWord = (c: string | undefined) => c !== undefined && WORD_CHAR.test(c);

export function wholeWordAt(lower: string, start: number, end: number, prefix = false): boolean {
  return !isWord(lower[start - 1]) && (prefix || !isWord(lower[end]));
}

function matchesWhole(raw: string, term: string): boolean {
  // Lexicon terms' words match across any run of white space.
  const text = raw.replace(/\s+/g, " ");
  const prefix = term.endsWith("*");
  const t = prefix ? term.slice(0, -1) : term;
  let at = text.indexOf(t);
  while (at !== -1) {
    if (wholeWordAt(text, at, at + t.length, prefix)) return true;
    at = text.indexOf(t, at + 1);
  }
  return false;
}

const fallback = (f: string) => {
  const name = f.toLowerCase();
  const spaced = name.replaceAll("_", " ");
  return spaced === name ? [name] : [name, spaced];
};

export function modelEvaluator(
  config: ModelConfig,
  calls: ReadonlySet<string> = new Set(),
): SuggestionEvaluator {
  const apply = (field: string, draft: readonly TermChange[]) => {
    const probe = [...(config.probe[field] ?? [])];
    const lex = [...(config.lexicon[field]?.terms ?? [])];
    let rule: AskRule = config.lexicon[field]?.rule ?? "anywhere";
    const own = config.probeMode ? probe : lex;
    for (const c of draft) {
      if (c.field !== field) continue;
      if (c.kind === "add") {
        // A probe's first own term keeps the field-name fallback it replaces.
        if (config.probeMode && own.length === 0) own.push(...fallback(field));
        own.push(c.term);
      } else if (c.kind === "remove") {
        const k = own.indexOf(c.term);
        if (k !== -1) own.splice(k, 1);
      } else rule = c.rule;
    }
    return { probe, lex, rule };
  };
  /** The lexicon's `*` entry under the draft: terms for every field, with their own rule. */
  const any = (draft: readonly TermChange[]) => {
    if (config.probeMode) return { terms: [] as string[], rule: "anywhere" as AskRule };
    const terms = [...(config.lexicon["*"]?.terms ?? [])];
    let rule: AskRule = config.lexicon["*"]?.rule ?? "anywhere";
    for (const c of draft) {
      if (c.field !== "*") continue;
      if (c.kind === "add") terms.push(c.term);
      else if (c.kind === "remove") terms.splice(terms.indexOf(c.term) >>> 0, 1);
      else rule = c.rule;
    }
    return { terms, rule };
  };
  return {
    rules: !config.probeMode,
    prepare: (lower) => (config.probeMode ? lower : lower.replace(/\s+/g, " ")),
    accepts: (lower, start, end) => config.probeMode === true || wholeWordAt(lower, start, end),
    rule: (field, draft) => apply(field, draft).rule,
    removable: (field, draft) => {
      const a = apply(field, draft);
      return config.probeMode ? a.probe : a.lex;
    },
    label(item: LabelledField, draft): Label {
      if (calls.has(item.key)) return item.ours;
      const { probe, lex, rule } = apply(item.field, draft);
      const lower = item.text.toLowerCase();
      const parts = rule === "question" ? questionSentences(lower).map((s) => s.text) : [lower];
      const terms = probe.length > 0 ? probe : fallback(item.field);
      for (const p of parts) {
        if (terms.some((t) => p.includes(t.toLowerCase()))) return "ASK";
        if (lex.some((t) => matchesWhole(p, t.toLowerCase()))) return "ASK";
      }
      const every = any(draft);
      const anyParts = every.rule === "question" ? questionSentences(lower).map((s) => s.text) : [lower];
      for (const p of anyParts) if (every.terms.some((t) => matchesWhole(p, t.toLowerCase()))) return "ASK";
      return "DRIFT";
    },
  };
}

let n = 0;
/** A labelled field whose `ours` is worked out by the model (no call). */
export function field(
  ev: SuggestionEvaluator,
  name: string,
  text: string,
  human: Label,
  source: LabelledField["source"] = "review",
): LabelledField {
  const item: LabelledField = { key: `f${++n}`, field: name, text, ours: "DRIFT", human, source };
  item.ours = ev.label(item, []);
  return item;
}

/**
 * A suggestion's fixes and breaks recounted by brute force from every field's label before and
 * after it (the oracle the property tests hold the ranking's counts to): a field turned to ASK
 * fixes when its human label is ASK and breaks otherwise; one turned away from ASK fixes when it
 * lands on its human label and breaks when it left it.
 */
export function recount(
  humans: readonly Label[],
  before: readonly Label[],
  after: readonly Label[],
): [fixes: number, breaks: number] {
  let fixes = 0;
  let breaks = 0;
  humans.forEach((human, k) => {
    if (after[k] === before[k]) return;
    if (after[k] === "ASK") {
      if (human === "ASK") fixes++;
      else breaks++;
    } else if (after[k] === human) fixes++;
    else if (before[k] === human) breaks++;
  });
  return [fixes, breaks];
}
