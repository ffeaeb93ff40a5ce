import { questionSentences } from "../review/question";
import { foldText } from "./fold";
import { ANY_FIELD_ENTRY, type AskRule, entryFor, type Lexicon } from "./lexicon";
import { lexiconTermMatcher, probeTermMatcher } from "./matcher";
import { termMatches } from "./terms";

/**
 * When a reply asks for a field (DESIGN.md's rule 1 with the lexicon): the probe's own terms as
 * substrings of the lower-cased text, the lexicon's as whole words of the folded text (one
 * compiled matcher each, lib/lexicon/matcher.ts), anywhere in the text or, under the
 * field's `question` rule, only inside a question sentence (lib/review/question.ts, the one
 * definition). The probe's terms are the field-name fallback when it lists none, whatever the
 * lexicon holds. With no lexicon entry this is the seed's test exactly.
 */

/** A lower-cased reply text, with its question sentences and its folded forms found once, when asked for. */
export class AskText {
  private qs: readonly string[] | null = null;
  private f: string | null = null;
  private fqs: readonly string[] | null = null;
  constructor(readonly text: string) {}
  /** The question sentences of the text (lower-cased, as the text is). */
  questions(): readonly string[] {
    if (this.qs === null) this.qs = questionSentences(this.text).map((s) => s.text);
    return this.qs;
  }
  /** The text as lexicon terms are matched in it (lib/lexicon/fold.ts). */
  folded(): string {
    if (this.f === null) this.f = foldText(this.text).text;
    return this.f;
  }
  /** The question sentences, folded. */
  foldedQuestions(): readonly string[] {
    if (this.fqs === null) this.fqs = this.questions().map((q) => foldText(q).text);
    return this.fqs;
  }
}

export interface FieldAsk {
  /** The probe's own terms for the field, lower-cased (its name when the probe lists none): substrings. */
  readonly probeTerms: readonly string[];
  /** The lexicon's terms for the field's name: whole words, `*` a prefix. */
  readonly lexiconTerms: readonly string[];
  readonly rule: AskRule;
  /** The lexicon's `*` entry's terms, which count for every probed field: whole words, `*` a prefix. */
  readonly anyTerms: readonly string[];
  /** The `*` entry's rule: it applies to the `*` terms only. */
  readonly anyRule: AskRule;
  /** Whether the reply asks for the field, by its rule (and the `*` terms by theirs). */
  asks(t: AskText): boolean;
  /** The terms (probe's, then lexicon's) the reply holds where they count. */
  found(t: AskText): string[];
  /** The same, by where each list's terms come from (the mutation check tells them apart). */
  foundBySource(t: AskText): TermsFound;
  /** The terms any of the lower-cased strings holds, wherever (a clarify call's arguments). */
  mentionedIn(strings: readonly string[]): TermsFound;
  /** Whether a lower-cased string holds one of the terms, wherever (a clarify call's arguments ask by being one). */
  mentions(s: string): boolean;
  /** Where the probe's terms occur in a lower-cased text, for highlighting: at most `max`. */
  probeMatches(lower: string, max?: number): { start: number; end: number; term: string }[];
  /** Where the lexicon's terms occur in a lower-cased text (offsets in it), for highlighting. */
  lexiconMatches(lower: string, max?: number): { start: number; end: number; term: string }[];
  /** Where the `*` entry's terms occur in a lower-cased text, for highlighting. */
  anyMatches(lower: string, max?: number): { start: number; end: number; term: string }[];
}

/** Terms found, by list: the probe's own (lower-cased), the lexicon's field entry's and its `*` entry's. */
export interface TermsFound {
  probe: ReadonlySet<string>;
  lexicon: ReadonlySet<string>;
  any: ReadonlySet<string>;
}

/** Where a rule lets terms count in a text: the whole text, or each question sentence. */
function readings(rule: AskRule, t: AskText): [string, () => string][] {
  return rule === "anywhere"
    ? [[t.text, () => t.folded()]]
    : t.questions().map((q, i) => [q, () => t.foldedQuestions()[i]]);
}

/** The ask test of one field: the probe's terms for it and the lexicon's entry for its name. */
export function fieldAsk(probeTerms: readonly string[], lexicon: Lexicon, field: string): FieldAsk {
  const entry = entryFor(lexicon, field);
  const lexiconTerms = entry?.terms ?? [];
  const rule = entry?.rule ?? "anywhere";
  const any = field === ANY_FIELD_ENTRY ? undefined : entryFor(lexicon, ANY_FIELD_ENTRY);
  const anyTerms = any?.terms ?? [];
  const anyRule = any?.rule ?? "anywhere";
  const own = probeTermMatcher(probeTerms);
  const words = lexiconTerms.length > 0 ? lexiconTermMatcher(lexiconTerms) : null;
  const anyWords = anyTerms.length > 0 ? lexiconTermMatcher(anyTerms) : null;
  /** Whether the `*` terms count in the reply, by the `*` rule. */
  const anyAsks = (t: AskText): boolean => {
    if (!anyWords) return false;
    for (const [, folded] of readings(anyRule, t)) if (anyWords.test(folded())) return true;
    return false;
  };
  /** One reading of the text (or a question) and, with lexicon terms, of its folded form. */
  const holds = (lower: string, folded: () => string) => own.test(lower) || words?.test(folded()) === true;
  const collect = (
    lower: string,
    folded: () => string,
    into: { probe: Set<string>; lexicon: Set<string> },
  ) => {
    own.scan(lower, (id) => {
      into.probe.add(probeTerms[id]);
    });
    words?.scan(folded(), (id) => {
      into.lexicon.add(lexiconTerms[id]);
    });
  };
  const collectAny = (folded: () => string, into: { any: Set<string> }) => {
    anyWords?.scan(folded(), (id) => {
      into.any.add(anyTerms[id]);
    });
  };
  const foundBySource = (t: AskText) => {
    const out = { probe: new Set<string>(), lexicon: new Set<string>(), any: new Set<string>() };
    for (const [lower, folded] of readings(rule, t)) collect(lower, folded, out);
    if (anyWords) for (const [, folded] of readings(anyRule, t)) collectAny(folded, out);
    return out;
  };
  return {
    probeTerms,
    lexiconTerms,
    rule,
    anyTerms,
    anyRule,
    asks: (t) => {
      if (rule === "anywhere") {
        if (holds(t.text, () => t.folded())) return true;
      } else {
        const qs = t.questions();
        for (let i = 0; i < qs.length; i++) if (holds(qs[i], () => t.foldedQuestions()[i])) return true;
      }
      return anyAsks(t);
    },
    found: (t) => {
      const out = foundBySource(t);
      // In the probe's order, then the lexicon's, then the `*` entry's, each once.
      const listed = new Set<string>();
      for (const x of probeTerms) if (out.probe.has(x)) listed.add(x);
      for (const x of lexiconTerms) if (out.lexicon.has(x)) listed.add(x);
      for (const x of anyTerms) if (out.any.has(x)) listed.add(x);
      return [...listed];
    },
    foundBySource,
    mentionedIn: (strings) => {
      const out = { probe: new Set<string>(), lexicon: new Set<string>(), any: new Set<string>() };
      for (const s of strings) {
        const folded = () => foldText(s).text;
        collect(s, folded, out);
        collectAny(folded, out);
      }
      return out;
    },
    mentions: (s) => holds(s, () => foldText(s).text) || anyWords?.test(foldText(s).text) === true,
    probeMatches: (lower, max = 1000) => {
      const out: { start: number; end: number; term: string }[] = [];
      own.scan(lower, (id, start, end) => {
        out.push({ start, end, term: probeTerms[id] });
        return out.length >= max;
      });
      return out;
    },
    lexiconMatches: (lower, max = 1000) => termMatches(lower, lexiconTerms, max),
    anyMatches: (lower, max = 1000) => (anyTerms.length > 0 ? termMatches(lower, anyTerms, max) : []),
  };
}
