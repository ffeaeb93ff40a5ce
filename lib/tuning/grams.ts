import { questionSentences, splitSentences } from "../review/question";

/**
 * Candidate ask terms from a text (DESIGN.md, "Suggestions"): its word 1-3-grams, lower-cased,
 * taken from its question sentences (the one definition, lib/review/question.ts), or from every
 * sentence when it holds no question.
 *
 * A word is a run of letters, digits and `_`, with apostrophes between them kept inside it
 * (`you're`, `what's`). An n-gram is only taken where its words are separated by exactly one
 * space, so every candidate is a literal stretch of the lower-cased text: it matches that text
 * as whole words, as the lexicon matches its terms.
 */

const WORD = /[\p{L}\p{N}_]+(?:['’][\p{L}\p{N}_]+)*/gu;

/** The longest n-gram a suggestion proposes. */
export const MAX_GRAM_WORDS = 3;

export interface Gram {
  /** The lower-cased n-gram. */
  term: string;
  /** Whether it came from a question sentence. */
  inQuestion: boolean;
}

function gramsOf(sentence: string, inQuestion: boolean, out: Map<string, Gram>): void {
  const lower = sentence.toLowerCase();
  const words: { start: number; end: number }[] = [];
  for (const m of lower.matchAll(WORD)) words.push({ start: m.index, end: m.index + m[0].length });
  for (let i = 0; i < words.length; i++) {
    for (let n = 1; n <= MAX_GRAM_WORDS && i + n <= words.length; n++) {
      const last = words[i + n - 1];
      // Words joined by anything but one space are not one literal term.
      if (n > 1 && lower.slice(words[i + n - 2].end, last.start) !== " ") break;
      const term = lower.slice(words[i].start, last.end);
      const had = out.get(term);
      if (!had) out.set(term, { term, inQuestion });
      else if (inQuestion) had.inQuestion = true;
    }
  }
}

/** The candidate terms of one text, each once: from its question sentences, else from all of it. */
export function candidateGrams(text: string | null | undefined): Gram[] {
  if (!text) return [];
  const out = new Map<string, Gram>();
  const questions = questionSentences(text);
  if (questions.length > 0) for (const q of questions) gramsOf(q.text, true, out);
  else for (const s of splitSentences(text)) gramsOf(s.text, false, out);
  return [...out.values()];
}

/** The number of words in a term. */
export function wordCount(term: string): number {
  return term.match(WORD)?.length ?? 0;
}
