import { questionSentences } from "../review/question";
import { type AskRule, entryFor, type Lexicon } from "./lexicon";
import { termsRegExp } from "./terms";

/**
 * When a reply asks for a field (DESIGN.md's rule 1 with the lexicon): the probe's own terms as
 * substrings, the lexicon's as whole words, both lower-cased, anywhere in the text or, under the
 * field's `question` rule, only inside a question sentence (lib/review/question.ts, the one
 * definition). The probe's terms are the field-name fallback when it lists none, whatever the
 * lexicon holds. With no lexicon entry this is the seed's test exactly.
 */

/** A lower-cased reply text, with its question sentences found once, when a rule asks for them. */
export class AskText {
  private qs: readonly string[] | null = null;
  constructor(readonly text: string) {}
  /** The question sentences of the text (lower-cased, as the text is). */
  questions(): readonly string[] {
    if (this.qs === null) this.qs = questionSentences(this.text).map((s) => s.text);
    return this.qs;
  }
}

export interface FieldAsk {
  /** The probe's own terms for the field, lower-cased (its name when the probe lists none): substrings. */
  readonly probeTerms: readonly string[];
  /** The lexicon's terms for the field's name: whole words, `*` a prefix. */
  readonly lexiconTerms: readonly string[];
  readonly rule: AskRule;
  /** Whether the reply asks for the field, by its rule. */
  asks(t: AskText): boolean;
  /** The terms (probe's, then lexicon's) the reply holds where they count. */
  found(t: AskText): string[];
  /** Whether a lower-cased string holds one of the terms, wherever (a clarify call's arguments ask by being one). */
  mentions(s: string): boolean;
}

function containsAny(text: string, terms: readonly string[]): boolean {
  for (const t of terms) if (text.includes(t)) return true;
  return false;
}

/** The ask test of one field: the probe's terms for it and the lexicon's entry for its name. */
export function fieldAsk(probeTerms: readonly string[], lexicon: Lexicon, field: string): FieldAsk {
  const entry = entryFor(lexicon, field);
  const lexiconTerms = entry?.terms ?? [];
  const rule = entry?.rule ?? "anywhere";
  const re = lexiconTerms.length > 0 ? termsRegExp(lexiconTerms) : null;
  const singles = re ? lexiconTerms.map((t) => ({ t, re: termsRegExp([t]) })) : [];
  const mentions = re
    ? (s: string) => containsAny(s, probeTerms) || re.test(s)
    : (s: string) => containsAny(s, probeTerms);
  const foundIn = (s: string, into: Set<string>) => {
    for (const t of probeTerms) if (s.includes(t)) into.add(t);
    for (const x of singles) if (x.re.test(s)) into.add(x.t);
  };
  if (rule === "anywhere") {
    return {
      probeTerms,
      lexiconTerms,
      rule,
      asks: (t) => mentions(t.text),
      found: (t) => {
        const out = new Set<string>();
        foundIn(t.text, out);
        return [...out];
      },
      mentions,
    };
  }
  return {
    probeTerms,
    lexiconTerms,
    rule,
    asks: (t) => {
      for (const q of t.questions()) if (mentions(q)) return true;
      return false;
    },
    found: (t) => {
      const out = new Set<string>();
      for (const q of t.questions()) foundIn(q, out);
      // In the probe's order, then the lexicon's, as the anywhere rule lists them.
      return [...probeTerms, ...lexiconTerms].filter((x) => out.has(x));
    },
    mentions,
  };
}
