import { describe, expect, it } from "vitest";
import { nameTerms, takeIntoEntries, takeIntoTerms } from "./draftChange";

describe("taking a suggestion into a draft", () => {
  it("adds to, removes from and sets the rule of a lexicon entry, creating it when missing", () => {
    const one = takeIntoEntries({}, { kind: "add", field: "city", term: "town" });
    expect(one).toEqual({ city: { terms: ["town"], rule: "anywhere" } });
    const two = takeIntoEntries(one, { kind: "add", field: "city", term: "town" });
    expect(two.city.terms).toEqual(["town"]);
    expect(takeIntoEntries(two, { kind: "remove", field: "city", term: "town" }).city.terms).toEqual([]);
    expect(takeIntoEntries(two, { kind: "rule", field: "city", rule: "question" }).city).toEqual({
      terms: ["town"],
      rule: "question",
    });
    // The draft given is left as it was.
    expect(one).toEqual({ city: { terms: ["town"], rule: "anywhere" } });
  });

  it("keeps a probe field's name fallback when its first own term is taken", () => {
    expect(nameTerms("start_date")).toEqual(["start_date", "start date"]);
    expect(takeIntoTerms([], "start_date", { kind: "add", field: "start_date", term: "when" })).toEqual([
      "start_date",
      "start date",
      "when",
    ]);
    expect(takeIntoTerms(["zone"], "timezone", { kind: "add", field: "timezone", term: "where" })).toEqual([
      "zone",
      "where",
    ]);
    expect(
      takeIntoTerms(["zone", "where"], "timezone", { kind: "remove", field: "timezone", term: "zone" }),
    ).toEqual(["where"]);
    expect(
      takeIntoTerms(["zone"], "timezone", { kind: "rule", field: "timezone", rule: "question" }),
    ).toEqual(["zone"]);
    expect(takeIntoTerms(["zone"], "severity", { kind: "add", field: "timezone", term: "where" })).toEqual([
      "zone",
    ]);
  });
});
