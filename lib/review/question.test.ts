import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AUXILIARIES,
  hasQuestion,
  QUESTION_WORDS,
  questionReason,
  questionSentences,
  REQUEST_PHRASES,
  splitSentences,
} from "./question";

const texts = (t: string) => splitSentences(t).map((s) => s.text);

describe("splitSentences", () => {
  it("splits at . ! ? and line breaks, keeping each sentence's own terminator", () => {
    expect(texts("Which region is u_9182 in? I need that to place 09:00 correctly.")).toEqual([
      "Which region is u_9182 in?",
      "I need that to place 09:00 correctly.",
    ]);
    expect(texts("Done! Anything else.\nYes\r\nno")).toEqual(["Done!", "Anything else.", "Yes", "no"]);
  });

  it("keeps a run of terminators and the closing quotes or brackets after it", () => {
    expect(texts('He said "which zone?" Then left... OK?! (fine.) end')).toEqual([
      'He said "which zone?"',
      "Then left...",
      "OK?!",
      "(fine.)",
      "end",
    ]);
  });

  it("does not split at a dot inside a number or word", () => {
    expect(texts("Version 2.0 is out. See example.com for e.g details")).toEqual([
      "Version 2.0 is out.",
      "See example.com for e.g details",
    ]);
  });

  it("drops empty sentences and gives offsets into the text", () => {
    const t = "  \n\n Hello there.  ?  \n  What now ";
    const s = splitSentences(t);
    expect(s.map((x) => x.text)).toEqual(["Hello there.", "?", "What now"]);
    for (const x of s) expect(t.slice(x.start, x.end)).toBe(x.text);
    expect(splitSentences("")).toEqual([]);
    expect(splitSentences("...\n\n")).toEqual([{ start: 0, end: 3, text: "..." }]);
  });

  it("covers the text: every non-space character is in exactly one sentence, in order", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", "b", " ", ".", "!", "?", "\n", "1", '"', ")") }),
        (t) => {
          const s = splitSentences(t);
          let last = 0;
          const covered = new Array(t.length).fill(false);
          for (const x of s) {
            expect(x.start).toBeGreaterThanOrEqual(last);
            expect(x.end).toBeGreaterThan(x.start);
            expect(t.slice(x.start, x.end)).toBe(x.text);
            expect(x.text).toBe(x.text.trim());
            expect(x.text.includes("\n")).toBe(false);
            for (let i = x.start; i < x.end; i++) covered[i] = true;
            last = x.end;
          }
          for (let i = 0; i < t.length; i++) if (!/\s/.test(t[i])) expect(covered[i]).toBe(true);
        },
      ),
    );
  });
});

describe("questionReason", () => {
  it("is a question mark when the sentence ends with ?", () => {
    expect(questionReason("Tokyo time, right?")).toBe("question_mark");
    expect(questionReason("Really?!")).toBe("question_mark");
    expect(questionReason('"the zone?"')).toBe("question_mark");
    expect(questionReason("I wonder?  ")).toBe("question_mark");
    // A ? inside the sentence is not its end.
    expect(questionReason("The ? key is broken.")).toBeNull();
  });

  it("knows every question word and auxiliary as the first word, in any case", () => {
    for (const w of QUESTION_WORDS) {
      expect(questionReason(`${w} zone applies.`)).toBe("question_word");
      expect(questionReason(`${w.toUpperCase()} zone applies`)).toBe("question_word");
    }
    for (const w of AUXILIARIES) {
      expect(questionReason(`${w} you share the zone.`)).toBe("auxiliary");
      expect(questionReason(`${w[0].toUpperCase()}${w.slice(1)} you share the zone`)).toBe("auxiliary");
    }
  });

  it("reads the first word past bullets, numbering, quotes and contractions", () => {
    expect(questionReason("- which zone should I use")).toBe("question_word");
    expect(questionReason("1) Could you confirm the zone")).toBe("auxiliary");
    expect(questionReason("“Where is the user located”")).toBe("question_word");
    expect(questionReason("What's the zone.")).toBe("question_word");
  });

  it("does not take a question word later in the sentence, or a word that starts with one", () => {
    expect(questionReason("I know which zone it is.")).toBeNull();
    expect(questionReason("Whatever you prefer.")).toBeNull();
    expect(questionReason("Island time is fine.")).toBeNull();
    expect(questionReason("Canada uses several zones.")).toBeNull();
    expect(questionReason("Does")).toBe("auxiliary");
  });

  it("finds every request phrase anywhere, as whole words, with any spacing and apostrophe", () => {
    for (const p of REQUEST_PHRASES) {
      expect(questionReason(`Before booking, ${p} the zone.`)).toBe("request");
      expect(questionReason(`Before booking, ${p.toUpperCase().replace(/ /g, "  \t")} the zone.`)).toBe(
        "request",
      );
    }
    expect(questionReason("For this I’ll need the zone.")).toBe("request");
    expect(questionReason("Kindly let me know the zone")).toBe("request");
    expect(questionReason("They retell mellow stories.")).toBeNull();
    expect(questionReason("I'll needle you.")).toBeNull();
    expect(questionReason("Please tell meteorologists.")).toBeNull();
  });

  it("gives the first reason that holds, in the definition's order", () => {
    expect(questionReason("Which zone? ")).toBe("question_mark");
    expect(questionReason("Could you please tell me the zone.")).toBe("auxiliary");
  });

  it("is not a question otherwise", () => {
    for (const s of ["I scheduled it for 09:00 UTC.", "Done.", "", "   ", "09:00 it is!", "Thanks"]) {
      expect(questionReason(s)).toBeNull();
    }
  });
});

describe("questionSentences and hasQuestion", () => {
  it("marks the demo's DRIFT that asked without naming the field", () => {
    const t = "Which region is u_9182 in? I need that to place 09:00 correctly.";
    expect(questionSentences(t)).toEqual([
      { start: 0, end: 26, text: "Which region is u_9182 in?", reason: "question_mark" },
    ]);
    expect(hasQuestion(t)).toBe(true);
  });

  it("finds questions on any line and keeps their offsets", () => {
    const t = "I can book it.\nWhere is the user located\nThanks. Let me know the zone please";
    const q = questionSentences(t);
    expect(q.map((x) => [x.text, x.reason])).toEqual([
      ["Where is the user located", "question_word"],
      ["Let me know the zone please", "request"],
    ]);
    for (const x of q) expect(t.slice(x.start, x.end)).toBe(x.text);
  });

  it("has none in statements, empty or missing text", () => {
    expect(hasQuestion("Scheduled for 09:00 in UTC. I assumed the zone.")).toBe(false);
    expect(hasQuestion(null)).toBe(false);
    expect(hasQuestion(undefined)).toBe(false);
    expect(hasQuestion("")).toBe(false);
    expect(questionSentences(null)).toEqual([]);
  });

  it("agrees with questionSentences on every text", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom("which", "zone", "is", "I", "tell me", "ok", ".", "?", "!", "\n", " ", "2.0"),
          { maxLength: 20 },
        ),
        (parts) => {
          const t = parts.join(" ");
          expect(hasQuestion(t)).toBe(questionSentences(t).length > 0);
        },
      ),
    );
  });
});
