import { questionReason, splitSentences } from "../review/question";

/**
 * Candidate ask terms from a text (DESIGN.md, "Suggestions"): its word 1-3-grams, lower-cased,
 * taken from its question sentences (the one definition, lib/review/question.ts), or from every
 * sentence when it holds no question.
 *
 * A word is a run of letters, digits and `_`, with apostrophes between them kept inside it
 * (`you're`, `what's`). An n-gram is only taken where its words are separated by white space
 * alone (stored with single spaces, as the lexicon stores terms): `city, state` gives no
 * `city state`. So every candidate matches the sentence it came from as whole words, as the
 * lexicon matches its terms (lib/lexicon/terms.ts: any run of white space between the words).
 */

const WORD = /[\p{L}\p{N}_]+(?:['’][\p{L}\p{N}_]+)*/gu;
const SPACE_ONLY = /^\s+$/u;

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
      // Words joined by anything but white space are not one term.
      if (n > 1 && !SPACE_ONLY.test(lower.slice(words[i + n - 2].end, last.start))) break;
      const term =
        n === 1
          ? lower.slice(last.start, last.end)
          : words
              .slice(i, i + n)
              .map((w) => lower.slice(w.start, w.end))
              .join(" ");
      const had = out.get(term);
      if (!had) out.set(term, { term, inQuestion });
      else if (inQuestion) had.inQuestion = true;
    }
  }
}

/** A text's sentences, and which of them are questions (lib/review/question.ts), read once. */
export interface TextSentences {
  all: readonly string[];
  questions: readonly string[];
}

export function textSentences(text: string | null | undefined): TextSentences {
  if (!text) return { all: [], questions: [] };
  const all = splitSentences(text).map((s) => s.text);
  return { all, questions: all.filter((s) => questionReason(s) !== null) };
}

/** The candidate terms of one text, each once: from its question sentences, else from all of it. */
export function candidateGrams(text: string | null | undefined | TextSentences): Gram[] {
  const s = typeof text === "object" && text !== null ? text : textSentences(text);
  const out = new Map<string, Gram>();
  if (s.questions.length > 0) for (const q of s.questions) gramsOf(q, true, out);
  else for (const x of s.all) gramsOf(x, false, out);
  return [...out.values()];
}

/** The number of words in a term. */
export function wordCount(term: string): number {
  return term.match(WORD)?.length ?? 0;
}
