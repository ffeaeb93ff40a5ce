import { codePointAt, codePointBefore, foldText, isWordChar } from "./fold";
import { TERM_LIMITS, termTextProblem } from "./limits";
import { lexiconTermMatcher } from "./matcher";

/**
 * Lexicon terms (DESIGN.md, "Tuning the scorer"): learned from text, they match whole words, one
 * or more of them, at word boundaries; a trailing `*` matches a prefix (`locat*`: locate,
 * location, locate's). Both sides are lower-cased with combining marks dropped
 * (lib/lexicon/fold.ts); in scripts written without spaces a term matches as a substring
 * (lib/lexicon/matcher.ts). A probe's own ask terms are not these: they stay substrings (the
 * seed's rule).
 *
 * Where DESIGN.md is silent:
 * - A word character is a letter, a digit, a mark or `_`, so `region` does not match inside
 *   `subregion` or `region_id`.
 * - The words of a term match with any run of white space between them (`time zone` matches
 *   `time\nzone`); a term is stored with single spaces, otherwise as typed (lower-cased).
 * - A term must hold a letter or a digit, and `*` only at its end.
 */

const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** The longest term the lexicon takes (lib/lexicon/limits.ts). */
export const MAX_TERM_LENGTH = TERM_LIMITS.termLength;

/** A term as stored: trimmed, lower-cased, inner white space as single spaces. */
export function normalizeTerm(term: string): string {
  return term.trim().toLowerCase().replace(/\s+/g, " ");
}

/** Why a (normalized) term cannot be a lexicon term, or null when it can. */
export function termProblem(term: string): string | null {
  const text = termTextProblem(term);
  if (text) return text;
  const star = term.indexOf("*");
  if (star >= 0 && star !== term.length - 1) return `"${term}": "*" may only end a term (a prefix)`;
  const body = star >= 0 ? term.slice(0, -1) : term;
  if (!HAS_LETTER_OR_DIGIT.test(body)) return `"${term}" holds no letter or digit`;
  if (star >= 0 && !isWordChar(codePointBefore(body, body.length)))
    return `"${term}": a prefix must end in a letter, digit or _ before "*"`;
  return null;
}

/** Whether a lower-cased text holds the lexicon term as whole words. */
export function holdsTerm(text: string, term: string): boolean {
  return lexiconTermMatcher([term]).test(foldText(text).text);
}

/**
 * Where lexicon terms occur in a lower-cased text: each match's start and end in that text, for
 * highlighting, in text order. At most `max` matches.
 */
export function termMatches(
  text: string,
  terms: readonly string[],
  max = 1000,
): { start: number; end: number; term: string }[] {
  if (terms.length === 0 || text === "") return [];
  const folded = foldText(text);
  const from = folded.from;
  const out: { start: number; end: number; term: string }[] = [];
  lexiconTermMatcher(terms).scan(folded.text, (id, start, end) => {
    // A prefix term marks the rest of its word too, as a reader sees the word it matched.
    let stop = end;
    if (terms[id].endsWith("*"))
      while (stop < folded.text.length && isWordChar(codePointAt(folded.text, stop)))
        stop += codePointAt(folded.text, stop) > 0xffff ? 2 : 1;
    out.push(
      from === null
        ? { start, end: stop, term: terms[id] }
        : { start: from[start], end: from[stop], term: terms[id] },
    );
    return out.length >= max;
  });
  return out.sort((a, b) => a.start - b.start || a.end - b.end);
}
