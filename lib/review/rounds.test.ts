import { describe, expect, it } from "vitest";
import { humanLabel } from "./humanLabel";
import {
  countedBlind,
  fieldRound,
  isSettled,
  type KindedReview,
  mayOffer,
  mayTakePart,
  orderKey,
  roundFieldState,
} from "./rounds";

let nextId = 1;
const r = (kind: KindedReview["kind"], reviewer: string, label: string | null): KindedReview => ({
  id: nextId++,
  kind,
  reviewer,
  label,
});

describe("fieldRound", () => {
  it("without blind reviews the newest review is current (the ordinary rule)", () => {
    const a = r("review", "ana", "ASK");
    const b = r("review", "bo", "DRIFT");
    expect(fieldRound([b, a])).toEqual({ state: undefined, current: b });
  });

  it("one blind review is single and carries the label", () => {
    const a = r("blind", "ana", "ASK");
    expect(fieldRound([a])).toEqual({ state: "single", current: a });
  });

  it("two reviewers with the same first label agree", () => {
    const a = r("blind", "ana", "ASK");
    const b = r("blind", "bo", "ASK");
    const res = fieldRound([a, b]);
    expect(res.state).toBe("agreed");
    expect(res.current?.label).toBe("ASK");
  });

  it("two reviewers that differ dispute the field: no human label, not even the imported one", () => {
    const a = r("blind", "ana", "ASK");
    const b = r("blind", "bo", "DRIFT");
    const res = fieldRound([a, b]);
    expect(res).toEqual({ state: "disputed", current: undefined });
    const current = res.current ?? { label: null, disputed: true };
    expect(humanLabel(current, "INJECT")).toBeUndefined();
  });

  it("an ordinary review does not settle a disputed field; an adjudication does", () => {
    const a = r("blind", "ana", "ASK");
    const b = r("blind", "bo", "DRIFT");
    const c = r("review", "cy", "ASK");
    expect(fieldRound([a, b, c]).state).toBe("disputed");
    const d = r("adjudication", "dee", "DRIFT");
    expect(fieldRound([a, b, c, d])).toEqual({ state: "adjudicated", current: d });
    // A clear adjudication withdraws the settlement.
    expect(fieldRound([a, b, c, d, r("adjudication", "dee", null)]).state).toBe("disputed");
  });

  it("only each reviewer's first blind review counts; a later relabel is an ordinary review", () => {
    const a1 = r("blind", "ana", "ASK");
    const b = r("blind", "bo", "ASK");
    const a2 = r("blind", "ana", "DRIFT");
    expect(countedBlind([a2, b, a1])).toEqual([a1, b]);
    expect(fieldRound([a1, b, a2]).state).toBe("agreed");
    expect(fieldRound([a1, b, a2]).current?.label).toBe("ASK");
    // An ordinary review newer than the agreement replaces it, as outside rounds.
    const c = r("review", "ana", "OMIT");
    expect(fieldRound([a1, b, a2, c]).current).toBe(c);
  });

  it("a blind clear does not count", () => {
    const a = r("blind", "ana", null);
    const b = r("blind", "bo", "ASK");
    expect(fieldRound([a, b])).toEqual({ state: "single", current: b });
  });
});

describe("round rules", () => {
  it("states from labels", () => {
    expect(roundFieldState([], null)).toBe("open");
    expect(roundFieldState(["ASK"], null)).toBe("single");
    expect(roundFieldState(["ASK", "ASK"], null)).toBe("agreed");
    expect(roundFieldState(["ASK", "DRIFT"], null)).toBe("disputed");
    expect(roundFieldState(["ASK", "DRIFT"], "ASK")).toBe("adjudicated");
    expect(isSettled("agreed")).toBe(true);
    expect(isSettled("adjudicated")).toBe(true);
    expect(isSettled("single")).toBe(false);
    expect(isSettled("disputed")).toBe(false);
  });

  it("who may take part and when a field may be offered", () => {
    expect(mayTakePart(null, "x")).toBe(true);
    expect(mayTakePart(["ana"], "bo")).toBe(false);
    expect(mayOffer(1, 2, false)).toBe(true);
    expect(mayOffer(2, 2, false)).toBe(false);
    expect(mayOffer(0, 2, true)).toBe(false);
  });

  it("the order key is a permutation: distinct traces, distinct keys; the seed changes the order", () => {
    const keys = new Set<number>();
    for (let id = 1; id <= 5000; id++) keys.add(orderKey(id, 12345));
    expect(keys.size).toBe(5000);
    const a = [1, 2, 3, 4, 5].sort((x, y) => orderKey(x, 1) - orderKey(y, 1));
    const b = [1, 2, 3, 4, 5].sort((x, y) => orderKey(x, 777) - orderKey(y, 777));
    expect(a).not.toEqual([1, 2, 3, 4, 5]);
    expect(a).not.toEqual(b);
  });
});
