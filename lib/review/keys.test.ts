import { describe, expect, it } from "vitest";
import { LABELS } from "../probe/schema";
import {
  FIXTURE_KEYS,
  fixtureAction,
  keyOfLabel,
  LABEL_KEY,
  QUEUE_KEYS,
  queueAction,
  REVIEW_KEY_HELP,
  REVIEW_KEYS,
  reviewAction,
  TRACE_NAV_KEYS,
} from "./keys";

describe("the review keyboard", () => {
  it("gives 1-6 to the labels in DESIGN.md's order", () => {
    expect(Object.entries(LABEL_KEY)).toEqual([
      ["1", "ASK"],
      ["2", "OMIT"],
      ["3", "COPY"],
      ["4", "INJECT"],
      ["5", "DRIFT"],
      ["6", "ERROR"],
    ]);
    for (const l of LABELS) expect(reviewAction(keyOfLabel(l))).toEqual({ kind: "label", label: l });
  });

  it("maps every other review key to its action, and nothing else", () => {
    expect(reviewAction(REVIEW_KEYS.clear)).toEqual({ kind: "clear" });
    expect(reviewAction("f")).toEqual({ kind: "nextField" });
    expect(reviewAction("F")).toEqual({ kind: "prevField" });
    expect(reviewAction("n")).toEqual({ kind: "note" });
    expect(reviewAction("z")).toEqual({ kind: "undo" });
    for (const k of ["7", "j", "k", "u", "?", "s", "o", "Enter", " "]) expect(reviewAction(k)).toBe(null);
    expect(queueAction("s")).toEqual({ kind: "skip" });
    expect(queueAction("o")).toEqual({ kind: "open" });
    expect(queueAction("1")).toBe(null);
    expect(fixtureAction("a")).toEqual({ kind: "addToSet" });
    expect(fixtureAction("A")).toEqual({ kind: "chooseSet" });
    expect(fixtureAction("1")).toBe(null);
  });

  it("uses no key twice across relabelling, the queue and the trace page's navigation", () => {
    const all = [
      ...Object.keys(LABEL_KEY),
      ...Object.values(REVIEW_KEYS),
      ...Object.values(QUEUE_KEYS),
      ...Object.values(FIXTURE_KEYS),
      ...TRACE_NAV_KEYS,
    ];
    expect(new Set(all).size).toBe(all.length);
    expect(REVIEW_KEY_HELP).toHaveLength(LABELS.length + 5);
  });
});
