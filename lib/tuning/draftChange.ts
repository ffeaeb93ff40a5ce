import type { LexiconEntry } from "../lexicon/lexicon";
import { askTermsFor } from "../probe/compile";
import type { Probe } from "../probe/schema";
import type { TermChange } from "./types";

/**
 * One suggestion taken into a draft (the lexicon page's or a probe's tune page's): the same
 * change `suggest --apply` saves, applied to whatever the draft holds now.
 */

/** A lexicon draft with one change: a term added to (or removed from) a field's entry, or its rule set. */
export function takeIntoEntries(
  entries: Readonly<Record<string, LexiconEntry>>,
  c: TermChange,
): Record<string, LexiconEntry> {
  const out: Record<string, LexiconEntry> = { ...entries };
  const e = out[c.field] ?? { terms: [], rule: "anywhere" };
  if (c.kind === "add")
    out[c.field] = { ...e, terms: e.terms.includes(c.term) ? e.terms : [...e.terms, c.term] };
  else if (c.kind === "remove") out[c.field] = { ...e, terms: e.terms.filter((t) => t !== c.term) };
  else out[c.field] = { ...e, rule: c.rule };
  return out;
}

/** The field-name fallback a probe's field asks with when it lists no terms. */
export function nameTerms(field: string): string[] {
  return askTermsFor({ ask_terms: {} } as unknown as Probe, field);
}

/**
 * A probe draft's terms for a field with one change. A field's first own term keeps the
 * field-name fallback it replaces, so taking a term never makes the probe stop asking by name.
 * Rule changes belong to the lexicon: they leave a probe's terms as they are.
 */
export function takeIntoTerms(terms: readonly string[], field: string, c: TermChange): string[] {
  if (c.kind === "rule" || c.field !== field) return [...terms];
  if (c.kind === "add") {
    const base = terms.length === 0 ? nameTerms(field) : [...terms];
    return base.includes(c.term) ? base : [...base, c.term];
  }
  return terms.filter((t) => t !== c.term);
}
