import { breakable } from "@/app/_components/Breakable";
import { Card } from "@/app/_components/Card";
import { CutNote } from "@/app/_components/SafeJsonBlock";
import type { TraceDetail } from "@/db/queries/traceDetail";
import type { AskTermHits } from "@/lib/probe/argumentMarks";
import { questionSentences } from "@/lib/review/question";
import { QUESTION_REASON_TEXT, questionRuns } from "@/lib/review/questionMarks";

/** The response text with matched ask terms in <mark>, and per field the terms looked for. */
export function ResponseText({ t, hits, called }: { t: TraceDetail; hits: AskTermHits; called: boolean }) {
  const text = t.response.text;
  // Question sentences of the shown text only: the work stays bounded however long the text is.
  const shown = hits.segments.reduce((n, s) => n + s.text.length, 0);
  const questions = questionSentences(text ? text.slice(0, shown) : null);
  return (
    <Card
      title="Response text"
      aside={
        t.response.fenced ? (
          <span className="text-xs text-slate-600">call recovered from a fenced JSON block</span>
        ) : null
      }
    >
      {text === null || text === "" ? (
        <p className="text-sm text-slate-500 italic" data-testid="response-text">
          {text === null ? "no text" : "empty text"}
        </p>
      ) : (
        <>
          <p
            className="max-h-[28rem] overflow-auto rounded bg-slate-50 p-2 text-sm [overflow-wrap:anywhere] whitespace-pre-wrap"
            data-testid="response-text"
          >
            {questionRuns(hits.segments, questions).map((run, r) => {
              const parts = run.parts.map((s, i) =>
                s.fields ? (
                  <mark
                    // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional and never reorder
                    key={i}
                    className="rounded-sm bg-yellow-200 px-0.5 font-semibold text-slate-900 underline decoration-yellow-700 decoration-2 underline-offset-2"
                    title={`ask term for ${s.fields.join(", ")}`}
                    data-testid="ask-term"
                  >
                    {breakable(s.text)}
                  </mark>
                ) : (
                  // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional and never reorder
                  <span key={i}>{breakable(s.text)}</span>
                ),
              );
              return run.question ? (
                <span
                  // biome-ignore lint/suspicious/noArrayIndexKey: runs are positional and never reorder
                  key={r}
                  className="rounded-sm bg-sky-100 underline decoration-sky-700 decoration-dotted decoration-2 underline-offset-4"
                  title={`a question (${QUESTION_REASON_TEXT[run.question.reason]})`}
                  data-testid="question-sentence"
                  data-reason={run.question.reason}
                >
                  {parts}
                </span>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: runs are positional and never reorder
                <span key={r}>{parts}</span>
              );
            })}
          </p>
          {questions.length > 0 ? (
            <p className="mt-1 text-xs text-slate-500" data-testid="question-legend">
              <span className="rounded-sm bg-sky-100 underline decoration-sky-700 decoration-dotted underline-offset-4">
                Dotted underline
              </span>
              : {questions.length === 1 ? "a question sentence" : `${questions.length} question sentences`}{" "}
              (it ends with ?, opens with a question word or an auxiliary, or holds a request phrase)
            </p>
          ) : null}
          {hits.cut ? (
            <CutNote>{`text shown to ${hits.segments.reduce((n, s) => n + s.text.length, 0).toLocaleString("en-US")} of ${text.length.toLocaleString("en-US")} characters; terms were looked for in all of it`}</CutNote>
          ) : null}
        </>
      )}
      <div className="mt-3">
        <h3 className="text-xs font-medium text-slate-500 uppercase">Ask terms</h3>
        <p className="text-xs text-slate-500">
          {called
            ? "There is a call, so ask terms do not decide the labels; they only raise ask_and_call."
            : "No call: a field is ASK when the lower-cased text contains one of its ask terms, else DRIFT."}
        </p>
        <ul className="mt-1 space-y-1 text-sm" data-testid="ask-terms">
          {Object.entries(hits.fields).map(([f, h]) => (
            <li
              key={f}
              data-testid="ask-terms-field"
              data-field={f}
              data-found={h.found.length > 0 ? "yes" : "no"}
            >
              <span className="font-mono">{f}</span>:{" "}
              {h.found.length > 0 ? (
                <span className="text-emerald-800">
                  <span aria-hidden="true">✓ </span>found {h.found.map((x) => `“${x}”`).join(", ")}
                </span>
              ) : (
                <span className="text-amber-900">
                  <span aria-hidden="true">✗ </span>none found
                </span>
              )}
              <span className="text-slate-500">
                {" "}
                · looked for <span data-testid="looked-for">{h.terms.map((x) => `“${x}”`).join(", ")}</span>
              </span>
              {h.any.length > 0 ? (
                <span className="text-slate-500" data-testid="looked-for-any">
                  {" "}
                  · and for every field (<span className="font-mono">*</span>
                  {h.anyRule === "question" ? ", in questions" : ""}) {h.any.map((x) => `“${x}”`).join(", ")}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
        {!called &&
        questions.length > 0 &&
        Object.values(t.result.fields).some((f) => f.label === "DRIFT") ? (
          <p className="mt-2 rounded bg-amber-50 p-2 text-xs text-amber-900" data-testid="drift-hint">
            <span aria-hidden="true">? </span>The reply asks a question but uses none of a DRIFT field's
            terms: if it asks for that field in other words, the bag-of-words heuristic missed an ASK.
          </p>
        ) : null}
      </div>
    </Card>
  );
}
