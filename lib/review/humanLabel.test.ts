import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LABELS } from "../probe/schema";
import { HUMAN_FILTERS, humanFilterText, matchesHumanFilter } from "./humanFilter";
import {
  humanLabel,
  isReviewed,
  normalizeImported,
  parseReviewLabel,
  type ReviewState,
  reviewMeaning,
  undoLabel,
} from "./humanLabel";

describe("humanLabel", () => {
  it("is the current review's label, else the imported one (any case), else none", () => {
    expect(humanLabel({ label: "ASK" }, "drift")).toEqual({ label: "ASK", source: "review" });
    expect(humanLabel(undefined, "drift")).toEqual({ label: "DRIFT", source: "imported" });
    expect(humanLabel(undefined, undefined)).toBeUndefined();
    expect(humanLabel(undefined, null)).toBeUndefined();
  });

  it("falls back to the imported label after a clear, and to none without one", () => {
    expect(humanLabel({ label: null }, "OMIT")).toEqual({ label: "OMIT", source: "imported" });
    expect(humanLabel({ label: null }, undefined)).toBeUndefined();
    expect(isReviewed({ label: null })).toBe(false);
    expect(isReviewed({ label: "ASK" })).toBe(true);
    expect(isReviewed(undefined)).toBe(false);
    expect(normalizeImported("inject")).toBe("INJECT");
  });
});

describe("reviewMeaning", () => {
  it("corrects when the label differs from ours, confirms when it is ours, clears with none", () => {
    for (const ours of LABELS) {
      for (const l of LABELS) expect(reviewMeaning(l, ours)).toBe(l === ours ? "confirms" : "corrects");
      expect(reviewMeaning(null, ours)).toBe("clears");
    }
  });
});

describe("undoLabel", () => {
  const history: ReviewState[] = [
    { id: 1, label: "ASK", replaces: null },
    { id: 2, label: null, replaces: 1 },
    { id: 3, label: "DRIFT", replaces: 2 },
    { id: 4, label: "ASK", replaces: 3 },
  ];
  const byId = (id: number) => history.find((r) => r.id === id);

  it("writes the label of the review the current one replaced", () => {
    expect(undoLabel(history[3], byId)).toBe("DRIFT");
    expect(undoLabel(history[2], byId)).toBe(null); // it replaced a clear
    expect(undoLabel(history[1], byId)).toBe("ASK");
    expect(undoLabel(history[0], byId)).toBe(null); // it replaced nothing
  });

  it("undoing an undo puts the undone label back", () => {
    fc.assert(
      fc.property(fc.constantFrom(...LABELS, null), fc.constantFrom(...LABELS), (first, second) => {
        const a: ReviewState = { id: 1, label: first, replaces: null };
        const b: ReviewState = { id: 2, label: second, replaces: 1 };
        const undo: ReviewState = { id: 3, label: undoLabel(b, (i) => [a, b][i - 1]), replaces: 2 };
        expect(undo.label).toBe(first);
        expect(undoLabel(undo, (i) => [a, b, undo][i - 1])).toBe(second);
      }),
    );
  });
});

describe("parseReviewLabel", () => {
  it("reads the six labels in any case, - or nothing as a clear, anything else as invalid", () => {
    for (const l of LABELS) {
      expect(parseReviewLabel(l.toLowerCase())).toBe(l);
      expect(parseReviewLabel(` ${l} `)).toBe(l);
    }
    expect(parseReviewLabel("-")).toBe(null);
    expect(parseReviewLabel("")).toBe(null);
    expect(parseReviewLabel("MAYBE")).toBeUndefined();
    expect(parseReviewLabel("ASKED")).toBeUndefined();
  });
});

describe("matchesHumanFilter", () => {
  it("reads each filter against ours, the current human label and whether it is reviewed", () => {
    const s = (ours: string, human: string | undefined, reviewed: boolean) => ({ ours, human, reviewed });
    expect(matchesHumanFilter("differs", s("DRIFT", "ASK", true))).toBe(true);
    expect(matchesHumanFilter("differs", s("DRIFT", "DRIFT", true))).toBe(false);
    expect(matchesHumanFilter("differs", s("DRIFT", undefined, false))).toBe(false);
    expect(matchesHumanFilter("agree", s("ASK", "ASK", false))).toBe(true);
    expect(matchesHumanFilter("agree", s("ASK", undefined, false))).toBe(false);
    expect(matchesHumanFilter("reviewed", s("ASK", "ASK", true))).toBe(true);
    // Reviewed means a current human label: an imported one counts.
    expect(matchesHumanFilter("reviewed", s("ASK", "ASK", false))).toBe(true);
    expect(matchesHumanFilter("unreviewed", s("ASK", "ASK", false))).toBe(false);
    expect(matchesHumanFilter("unreviewed", s("ASK", undefined, false))).toBe(true);
    expect(matchesHumanFilter("ASK", s("DRIFT", "ASK", false))).toBe(true);
    expect(matchesHumanFilter("OMIT", s("DRIFT", "ASK", false))).toBe(false);
  });

  it("splits every field into reviewed or unreviewed, and a labelled one into agree or differs", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LABELS),
        fc.option(fc.constantFrom(...LABELS), { nil: undefined }),
        fc.boolean(),
        (ours, human, reviewed) => {
          const st = { ours, human, reviewed };
          expect(matchesHumanFilter("reviewed", st)).not.toBe(matchesHumanFilter("unreviewed", st));
          if (human !== undefined)
            expect(matchesHumanFilter("agree", st)).not.toBe(matchesHumanFilter("differs", st));
          expect(LABELS.filter((l) => matchesHumanFilter(l, st)).length).toBe(human === undefined ? 0 : 1);
        },
      ),
    );
    for (const f of HUMAN_FILTERS) expect(humanFilterText(f)).toBeTruthy();
  });
});
