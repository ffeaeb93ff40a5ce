import { codePointAt, codePointBefore, foldTerm, isNoSpace, isWordChar } from "./fold";
import { type TermFinder, termFinder } from "./termFinder";

/**
 * The one way ask terms are found in a reply: one compiled matcher per list of terms, linear in
 * the text and in the terms (an Aho-Corasick automaton, lib/lexicon/termFinder.ts), never a
 * regular expression per term nor one alternation of them all. The scorer, the what-if, re-score,
 * suggestions, the mutation check and the trace page all come here through lib/lexicon/ask.ts.
 *
 * - A probe's own terms (substringMatcher) match as substrings of the lower-cased text: the seed's
 *   rule, for parity.
 * - Lexicon terms (wordMatcher) match in the folded text (lib/lexicon/fold.ts) as whole words: no
 *   word character just before or after the match, unless a character on either side of that
 *   boundary is of a script written without spaces (CJK, Thai), where a term is a substring; a
 *   trailing `*` leaves the end open (a prefix).
 */

/** One occurrence: where it starts and ends in the text scanned, and the index of its term. */
export interface TermHit {
  start: number;
  end: number;
  term: number;
}

export interface TermMatcher {
  readonly terms: readonly string[];
  /**
   * Calls `visit` for every occurrence that counts, in order of its end, until `visit` returns
   * true. Returns the automaton's work (see TermFinder.scan), 0 for a matcher that reads no text.
   */
  scan(text: string, visit: (term: number, start: number, end: number) => unknown): number;
  /** Whether any term occurs in the text. */
  test(text: string): boolean;
}

/**
 * Few terms are found by the engine's own substring search, which beats reading the text once in
 * the automaton until the terms are this many (a fixed count: the work stays linear in the text).
 */
const FEW = 8;

function hasAny(m: TermMatcher, text: string): boolean {
  let found = false;
  m.scan(text, () => {
    found = true;
    return true;
  });
  return found;
}

/** A probe's own terms (lower-cased): substrings of the lower-cased text. */
export function substringMatcher(terms: readonly string[]): TermMatcher {
  const list = terms.filter((t) => t !== "");
  if (list.length <= FEW) {
    return {
      terms,
      test: (text) => {
        for (const t of list) if (text.includes(t)) return true;
        return false;
      },
      scan(text, visit) {
        const hits: TermHit[] = [];
        terms.forEach((t, term) => {
          if (t === "") return;
          for (let at = text.indexOf(t); at !== -1; at = text.indexOf(t, at + 1))
            hits.push({ start: at, end: at + t.length, term });
        });
        hits.sort((a, b) => a.end - b.end || b.start - a.start);
        for (const h of hits) if (visit(h.term, h.start, h.end) === true) break;
        return 0;
      },
    };
  }
  const { finder, owners } = patterns(terms);
  const m: TermMatcher = {
    terms,
    scan: (text, visit) =>
      finder.scan(text, (id, start, end) => {
        for (const term of owners[id]) if (visit(term, start, end) === true) return true;
        return false;
      }),
    test: (text) => hasAny(m, text),
  };
  return m;
}

/** Unique non-empty patterns in one automaton, each with the terms it stands for. */
function patterns(bodies: readonly string[]): { finder: TermFinder; owners: number[][] } {
  const index = new Map<string, number>();
  const owners: number[][] = [];
  bodies.forEach((b, term) => {
    if (b === "") return;
    let id = index.get(b);
    if (id === undefined) {
      id = owners.length;
      index.set(b, id);
      owners.push([]);
    }
    owners[id].push(term);
  });
  return { finder: termFinder([...index.keys()]), owners };
}

/**
 * Whether a match may start after the text's code point `before` (-1: the start) when the term
 * starts with `first`: no word character before it, unless either is of a script without spaces.
 */
function openBefore(before: number, first: number): boolean {
  return before === -1 || !isWordChar(before) || isNoSpace(before) || isNoSpace(first);
}

/** Whether a match may end before the text's code point `after` (-1: the end): as openBefore. */
function openAfter(last: number, after: number): boolean {
  return after === -1 || !isWordChar(after) || isNoSpace(after) || isNoSpace(last);
}

/** Whether text[start, end) stands as whole words in the text, by the lexicon's boundary rule. */
export function wholeWordsAt(text: string, start: number, end: number): boolean {
  return (
    openBefore(codePointBefore(text, start), codePointAt(text, start)) &&
    openAfter(codePointBefore(text, end), codePointAt(text, end))
  );
}

/**
 * Lexicon terms (as stored: lower-cased, single spaces, a trailing `*` a prefix), matched in a
 * folded text (foldText) as whole words: the text holds no word character just before or after
 * the match (so `+9` is not found in `utc+9`), unless the text's character or the term's own
 * first or last one is of a script without spaces (a CJK term matches inside CJK text).
 */
export function wordMatcher(terms: readonly string[]): TermMatcher {
  const prefix = terms.map((t) => t.endsWith("*"));
  const bodies = terms.map((t, i) => foldTerm(prefix[i] ? t.slice(0, -1) : t));
  const { finder, owners } = patterns(bodies);
  const m: TermMatcher = {
    terms,
    scan: (text, visit) =>
      finder.scan(text, (id, start, end) => {
        const before = codePointBefore(text, start);
        const after = codePointAt(text, end);
        for (const term of owners[id]) {
          const body = bodies[term];
          if (!openBefore(before, codePointAt(body, 0))) continue;
          if (!prefix[term] && !openAfter(codePointBefore(body, body.length), after)) continue;
          if (visit(term, start, end) === true) return true;
        }
        return false;
      }),
    test: (text) => hasAny(m, text),
  };
  return m;
}

/** Matchers made lately, by kind and terms: a draft rebuilds only the lists it changed. */
const recent = new Map<string, TermMatcher>();
const KEEP = 256;

function cached(key: string, make: () => TermMatcher): TermMatcher {
  let m = recent.get(key);
  if (m) {
    recent.delete(key);
  } else m = make();
  recent.set(key, m);
  if (recent.size > KEEP) recent.delete(recent.keys().next().value as string);
  return m;
}

/** substringMatcher, shared by equal lists. */
export function probeTermMatcher(terms: readonly string[]): TermMatcher {
  return cached(`s\u0000${terms.join("\u0000")}`, () => substringMatcher(terms));
}

/** wordMatcher, shared by equal lists. */
export function lexiconTermMatcher(terms: readonly string[]): TermMatcher {
  return cached(`w\u0000${terms.join("\u0000")}`, () => wordMatcher(terms));
}
