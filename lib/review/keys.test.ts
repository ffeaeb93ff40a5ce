import { describe, expect, it } from "vitest";
import { LABELS } from "../probe/schema";
import {
  FIXTURE_KEYS,
  fixtureAction,
  keyOfLabel,
  labelIndexOf,
  QUEUE_KEYS,
  queueAction,
  REVIEW_KEYS,
  reviewAction,
  reviewKeyHelp,
  TRACE_NAV_KEYS,
} from "./keys";

describe("the review keyboard", () => {
  it("gives 1-6 to the labels in DESIGN.md's order, top row or keypad, Shift to stay", () => {
    LABELS.forEach((l, i) => {
      expect(keyOfLabel(l)).toBe(String(i + 1));
      expect(reviewAction({ key: String(i + 1), code: `Digit${i + 1}` })).toEqual({
        kind: "label",
        label: l,
        stay: false,
      });
      expect(reviewAction({ key: String(i + 1), code: `Numpad${i + 1}` })).toEqual({
        kind: "label",
        label: l,
        stay: false,
      });
    });
    // Shift+1 types "!" on a US layout: the key's code still names the digit.
    expect(reviewAction({ key: "!", code: "Digit1", shiftKey: true })).toEqual({
      kind: "label",
      label: "ASK",
      stay: true,
    });
    expect(labelIndexOf({ key: "7", code: "Digit7" })).toBe(null);
    expect(labelIndexOf({ key: "0", code: "Digit0" })).toBe(null);
  });

  it("maps the other review keys to their actions, and nothing else", () => {
    expect(reviewAction({ key: "x" })).toEqual({ kind: "clear" });
    expect(reviewAction({ key: "f" })).toEqual({ kind: "nextField" });
    expect(reviewAction({ key: "F", shiftKey: true })).toEqual({ kind: "prevField" });
    expect(reviewAction({ key: "n" })).toEqual({ kind: "note" });
    expect(reviewAction({ key: "z" })).toEqual({ kind: "undo" });
    // Enter saves over another review only while a conflict is shown.
    expect(reviewAction({ key: "Enter" })).toBe(null);
    expect(reviewAction({ key: "Enter" }, true)).toEqual({ kind: "resubmit" });
    for (const key of ["7", "0", "j", "k", "u", "?", "s", "o", " ", "a", "A"])
      expect(reviewAction({ key })).toBe(null);
    expect(queueAction({ key: "s" })).toEqual({ kind: "skip" });
    expect(queueAction({ key: "o" })).toEqual({ kind: "open" });
    expect(queueAction({ key: "1" })).toBe(null);
    expect(fixtureAction("a")).toEqual({ kind: "addToSet" });
    expect(fixtureAction("A")).toEqual({ kind: "chooseSet" });
    expect(fixtureAction("1")).toBe(null);
  });

  it("uses no key twice across relabelling, the queue and the trace page's navigation", () => {
    const fieldKeys = [REVIEW_KEYS.field, REVIEW_KEYS.field.toUpperCase()];
    const all = [
      ...LABELS.map(keyOfLabel),
      REVIEW_KEYS.clear,
      ...fieldKeys,
      REVIEW_KEYS.note,
      REVIEW_KEYS.undo,
      REVIEW_KEYS.resubmit,
      ...Object.values(QUEUE_KEYS),
      ...Object.values(FIXTURE_KEYS),
      ...TRACE_NAV_KEYS,
    ];
    expect(new Set(all).size).toBe(all.length);
    expect(reviewKeyHelp("the next item")[0].does).toContain(
      "1 ASK, 2 OMIT, 3 COPY, 4 INJECT, 5 DRIFT, 6 ERROR",
    );
  });
});
