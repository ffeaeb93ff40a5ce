/**
 * Lexicon terms (DESIGN.md, "Tuning the scorer"): learned from text, they match whole words, one
 * or more of them, at word boundaries; a trailing `*` matches a prefix (`locat*`: locate, location,
 * locate's). Both sides are lower-cased. A probe's own ask terms are not these: they stay
 * substrings (the seed's rule).
 *
 * Where DESIGN.md is silent:
 * - A word character is a letter, a digit or `_` (the request phrases of lib/review/question.ts
 *   use the same boundary), so `region` does not match inside `subregion` or `region_id`.
 * - The words of a term match with any run of white space between them (`time zone` matches
 *   `time\nzone`); a term is stored with single spaces.
 * - A term must hold a letter or a digit, and `*` only at its end.
 */

/** What a word is made of, for boundaries and prefixes. */
const WORD_CHAR = "[\\p{L}\\p{N}_]";
const WORD_CHAR_TEST = /[\p{L}\p{N}_]/u;
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** The longest term the lexicon takes. */
export const MAX_TERM_LENGTH = 100;

/** A term as stored: trimmed, lower-cased, inner white space as single spaces. */
export function normalizeTerm(term: string): string {
  return term.trim().toLowerCase().replace(/\s+/g, " ");
}

/** Why a (normalized) term cannot be a lexicon term, or null when it can. */
export function termProblem(term: string): string | null {
  if (term === "") return "a term cannot be empty";
  if (term.length > MAX_TERM_LENGTH) return `a term is at most ${MAX_TERM_LENGTH} characters`;
  const star = term.indexOf("*");
  if (star >= 0 && star !== term.length - 1) return `"${term}": "*" may only end a term (a prefix)`;
  const body = star >= 0 ? term.slice(0, -1) : term;
  if (!HAS_LETTER_OR_DIGIT.test(body)) return `"${term}" holds no letter or digit`;
  if (star >= 0 && !WORD_CHAR_TEST.test(body[body.length - 1]))
    return `"${term}": a prefix must end in a letter, digit or _ before "*"`;
  return null;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** One term's pattern (without its boundaries): words joined by white space, `*` a prefix. */
export function termPattern(term: string): string {
  const prefix = term.endsWith("*");
  const body = prefix ? term.slice(0, -1) : term;
  const words = body.split(" ").map(escapeRegExp).join("\\s+");
  return prefix ? `${words}${WORD_CHAR}*` : words;
}

/** One regular expression for a list of terms: any of them, as whole words. */
export function termsRegExp(terms: readonly string[], flags = "u"): RegExp {
  const alternatives = terms.map(termPattern).join("|");
  return new RegExp(`(?<!${WORD_CHAR})(?:${alternatives})(?!${WORD_CHAR})`, flags);
}

/** Whether a lower-cased text holds the lexicon term as whole words. */
export function holdsTerm(text: string, term: string): boolean {
  return termsRegExp([term]).test(text);
}

/**
 * Where lexicon terms occur in a lower-cased text: each match's start and end, for highlighting.
 * At most `max` matches.
 */
export function termMatches(
  text: string,
  terms: readonly string[],
  max = 1000,
): { start: number; end: number; term: string }[] {
  if (terms.length === 0 || text === "") return [];
  const out: { start: number; end: number; term: string }[] = [];
  const singles = terms.map((t) => ({ term: t, re: termsRegExp([t], "gu") }));
  for (const { term, re } of singles) {
    for (const m of text.matchAll(re)) {
      out.push({ start: m.index, end: m.index + m[0].length, term });
      if (out.length >= max) return out;
    }
  }
  return out.sort((a, b) => a.start - b.start);
}
