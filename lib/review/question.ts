/**
 * The one definition of a question (the review queue and the `question` ask rule both use it).
 *
 * A text is split into sentences at `.`, `!`, `?` and line breaks. A sentence is a question when
 * it ends with `?`, or its first word is a question word or an auxiliary, or it holds a request
 * phrase. Matching ignores case.
 *
 * Where the definition is silent:
 * - A sentence ends after a run of `.`, `!` and `?` together (`?!`, `...`) and any closing quotes
 *   or brackets right after it; a run that holds a `?` ends a question (`Really?!`).
 * - A `.` directly followed by a letter or digit does not split (`2.0`, `e.g`, `example.com`):
 *   it is not the end of a sentence.
 * - The first word is the first run of letters (`What's` reads as `what`); bullets, numbering and
 *   opening quotes before it are skipped.
 * - Request phrases match as whole words, with any whitespace between their words and either
 *   apostrophe (`I'll`, `I’ll`).
 */

export const QUESTION_WORDS = [
  "what",
  "which",
  "where",
  "when",
  "who",
  "whom",
  "whose",
  "why",
  "how",
] as const;
export const AUXILIARIES = [
  "can",
  "could",
  "would",
  "will",
  "do",
  "does",
  "did",
  "is",
  "are",
  "should",
  "may",
  "shall",
] as const;
export const REQUEST_PHRASES = [
  "please tell me",
  "please provide",
  "please confirm",
  "please specify",
  "please share",
  "let me know",
  "tell me",
  "I need to know",
  "I'll need",
] as const;

/** Why a sentence is a question, in the order the definition lists them. */
export type QuestionReason = "question_mark" | "question_word" | "auxiliary" | "request";

export interface Sentence {
  /** Offsets into the text: `text.slice(start, end)` is the sentence without surrounding spaces. */
  start: number;
  end: number;
  text: string;
}

export interface QuestionSentence extends Sentence {
  reason: QuestionReason;
}

const CLOSERS = new Set(['"', "'", "”", "’", ")", "]", "»"]);
const TERMINATORS = new Set([".", "!", "?"]);
const isLineBreak = (c: string) => c === "\n" || c === "\r" || c === "\u2028" || c === "\u2029";
const isSpace = (c: string) => /\s/u.test(c);
const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** The sentences of a text, in order, with their offsets; empty ones are dropped. */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  let from = 0;
  const push = (start: number, end: number) => {
    while (start < end && isSpace(text[start])) start++;
    while (end > start && isSpace(text[end - 1])) end--;
    if (end > start) out.push({ start, end, text: text.slice(start, end) });
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (isLineBreak(c)) {
      push(from, i);
      from = i + 1;
      i++;
      continue;
    }
    if (TERMINATORS.has(c)) {
      // `2.0`, `e.g`, `example.com`: a dot inside a word or number is not a sentence's end.
      if (c === "." && isWordChar(text[i + 1]) && isWordChar(text[i - 1])) {
        i++;
        continue;
      }
      let j = i + 1;
      while (j < text.length && TERMINATORS.has(text[j])) j++;
      while (j < text.length && CLOSERS.has(text[j])) j++;
      push(from, j);
      from = j;
      i = j;
      continue;
    }
    i++;
  }
  push(from, text.length);
  return out;
}

const FIRST_WORD = /\p{L}+/u;
const QUESTION_WORD_SET = new Set<string>(QUESTION_WORDS);
const AUXILIARY_SET = new Set<string>(AUXILIARIES);

function phrasePattern(phrase: string): RegExp {
  const words = phrase
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/'/g, "['’]"));
  return new RegExp(`(?<![\\p{L}\\p{N}_])${words.join("\\s+")}(?![\\p{L}\\p{N}_])`, "iu");
}
const REQUEST_PATTERNS = REQUEST_PHRASES.map(phrasePattern);

/** Why one sentence is a question, or null when it is not one. */
export function questionReason(sentence: string): QuestionReason | null {
  const s = sentence.trim();
  let k = s.length;
  while (k > 0 && CLOSERS.has(s[k - 1])) k--;
  let t = k;
  while (t > 0 && TERMINATORS.has(s[t - 1])) t--;
  if (s.slice(t, k).includes("?")) return "question_mark";
  const first = FIRST_WORD.exec(s)?.[0].toLowerCase();
  if (first !== undefined) {
    if (QUESTION_WORD_SET.has(first)) return "question_word";
    if (AUXILIARY_SET.has(first)) return "auxiliary";
  }
  if (REQUEST_PATTERNS.some((p) => p.test(s))) return "request";
  return null;
}

/** The sentences of a text that are questions, with why. */
export function questionSentences(text: string | null | undefined): QuestionSentence[] {
  if (!text) return [];
  const out: QuestionSentence[] = [];
  for (const s of splitSentences(text)) {
    const reason = questionReason(s.text);
    if (reason !== null) out.push({ ...s, reason });
  }
  return out;
}

/** Whether a text holds a question. */
export function hasQuestion(text: string | null | undefined): boolean {
  if (!text) return false;
  // Every `?` ends a sentence with a run of terminators that holds it: that sentence is a question.
  if (text.includes("?")) return true;
  for (const s of splitSentences(text)) if (questionReason(s.text) !== null) return true;
  return false;
}
