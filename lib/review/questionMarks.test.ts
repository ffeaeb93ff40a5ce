import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { askTermHits } from "../probe/argumentMarks";
import { scheduleWindow } from "../probe/testProbes";
import { questionSentences } from "./question";
import { questionRuns } from "./questionMarks";

const flat = (runs: ReturnType<typeof questionRuns>) =>
  runs.map((r) => [r.question ? "Q" : "-", r.parts.map((p) => (p.fields ? `[${p.text}]` : p.text)).join("")]);

describe("questionRuns", () => {
  it("marks question sentences around the ask terms found in them", () => {
    const text = "Scheduled. Which timezone is u_9182 in? I need that. Please confirm the time zone";
    const hits = askTermHits(text, scheduleWindow());
    expect(flat(questionRuns(hits.segments, questionSentences(text)))).toEqual([
      ["-", "Scheduled. "],
      ["Q", "Which [timezone] is u_9182 in?"],
      ["-", " I need that. "],
      ["Q", "Please confirm the [time zone]"],
    ]);
  });

  it("leaves a text with no question as one run", () => {
    const text = "Done. Scheduled in UTC.";
    const hits = askTermHits(text, scheduleWindow());
    expect(flat(questionRuns(hits.segments, questionSentences(text)))).toEqual([["-", text]]);
  });

  it("splits an ask term that a sentence boundary cuts", () => {
    const segments = [{ text: "ab" }, { text: "cd?ef", fields: ["x"] }, { text: "gh" }];
    // "abcd?" is a question (0-5), "efgh" is not.
    const runs = questionRuns(segments, [{ start: 0, end: 5, text: "abcd?", reason: "question_mark" }]);
    expect(flat(runs)).toEqual([
      ["Q", "ab[cd?]"],
      ["-", "[ef]gh"],
    ]);
  });

  it("keeps every character, in order, whatever the text", () => {
    const unit = fc.constantFrom("a", "timezone", " ", ".", "?", "\n", "Is ", "tell me");
    fc.assert(
      fc.property(fc.string({ unit }), (text) => {
        const hits = askTermHits(text, scheduleWindow());
        const qs = questionSentences(text);
        const runs = questionRuns(hits.segments, qs);
        expect(runs.flatMap((r) => r.parts.map((p) => p.text)).join("")).toBe(text);
        // Each question run is exactly its sentence.
        for (const r of runs)
          if (r.question) expect(r.parts.map((p) => p.text).join("")).toBe(r.question.text);
        expect(runs.filter((r) => r.question).length).toBe(qs.length);
      }),
      { numRuns: 500 },
    );
  });
});
