import type { TextSegment } from "../probe/argumentMarks";
import type { QuestionReason, QuestionSentence } from "./question";

/** Why a sentence reads as a question, in words. */
export const QUESTION_REASON_TEXT: Readonly<Record<QuestionReason, string>> = {
  question_mark: "it ends with ?",
  question_word: "it opens with a question word",
  auxiliary: "it opens with an auxiliary",
  request: "it holds a request phrase",
};

/**
 * The response text as runs for display: each run is either one question sentence (the one
 * definition, lib/review/question.ts) or the text between them, holding the ask-term segments
 * that fall inside it (split where a sentence starts or ends). Offsets of the questions are into
 * the whole text; the segments cover its shown start, in order.
 */
export interface TextRun {
  question: QuestionSentence | null;
  parts: TextSegment[];
}

export function questionRuns(
  segments: readonly TextSegment[],
  questions: readonly QuestionSentence[],
): TextRun[] {
  const runs: TextRun[] = [];
  const push = (question: QuestionSentence | null, part: TextSegment) => {
    if (part.text === "") return;
    const last = runs[runs.length - 1];
    if (last && last.question === question) last.parts.push(part);
    else runs.push({ question, parts: [part] });
  };
  let pos = 0;
  let q = 0;
  for (const seg of segments) {
    let from = 0;
    const end = pos + seg.text.length;
    while (from < seg.text.length) {
      const at = pos + from;
      while (q < questions.length && questions[q].end <= at) q++;
      const cur = q < questions.length ? questions[q] : null;
      let stop: number;
      let inside: QuestionSentence | null;
      if (cur && cur.start <= at) {
        inside = cur;
        stop = Math.min(end, cur.end);
      } else {
        inside = null;
        stop = cur ? Math.min(end, cur.start) : end;
      }
      push(inside, { ...seg, text: seg.text.slice(from, stop - pos) });
      from = stop - pos;
    }
    pos = end;
  }
  return runs;
}
