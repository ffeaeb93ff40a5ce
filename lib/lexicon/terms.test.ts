import { describe, expect, it } from "vitest";
import { lexiconTermMatcher } from "./matcher";
import { holdsTerm, normalizeTerm, termMatches, termProblem } from "./terms";

describe("lexicon terms match whole words", () => {
  it("at word boundaries only: not inside another word, nor joined by _ or a digit", () => {
    expect(holdsTerm("which region is u_9182 in?", "region")).toBe(true);
    expect(holdsTerm("region?", "region")).toBe(true);
    expect(holdsTerm("(region)", "region")).toBe(true);
    expect(holdsTerm("the subregion", "region")).toBe(false);
    expect(holdsTerm("regional office", "region")).toBe(false);
    expect(holdsTerm("region_id", "region")).toBe(false);
    expect(holdsTerm("region2", "region")).toBe(false);
    expect(holdsTerm("é-region", "region")).toBe(true);
    expect(holdsTerm("éregion", "region")).toBe(false);
  });

  it("a term of several words matches them in order with any white space between", () => {
    expect(holdsTerm("what time zone?", "time zone")).toBe(true);
    expect(holdsTerm("what time\n  zone?", "time zone")).toBe(true);
    expect(holdsTerm("what timezone?", "time zone")).toBe(false);
    expect(holdsTerm("the time zones", "time zone")).toBe(false);
    expect(holdsTerm("sometime zone", "time zone")).toBe(false);
  });

  it("a trailing * matches a prefix of a word", () => {
    expect(holdsTerm("where are you located?", "locat*")).toBe(true);
    expect(holdsTerm("your location", "locat*")).toBe(true);
    expect(holdsTerm("locat", "locat*")).toBe(true);
    expect(holdsTerm("relocate", "locat*")).toBe(false);
    expect(holdsTerm("which time zones", "time zone*")).toBe(true);
  });

  it("treats regular-expression characters in a term as themselves", () => {
    expect(holdsTerm("is it (utc+9)?", "utc+9")).toBe(true);
    expect(holdsTerm("utcc9", "utc+9")).toBe(false);
    expect(holdsTerm("a.b", "a.b")).toBe(true);
    expect(holdsTerm("axb", "a.b")).toBe(false);
    expect(holdsTerm("see a/b here", "a/b")).toBe(true);
  });

  it("one matcher for many terms matches when any does", () => {
    const m = lexiconTermMatcher(["region", "locat*", "time zone"]);
    expect(m.test("your location?")).toBe(true);
    expect(m.test("the time zone")).toBe(true);
    expect(m.test("nothing here")).toBe(false);
  });

  it("lists matches with their offsets, in text order", () => {
    expect(termMatches("region, then location, then region", ["region", "locat*"])).toEqual([
      { start: 0, end: 6, term: "region" },
      { start: 13, end: 21, term: "locat*" },
      { start: 28, end: 34, term: "region" },
    ]);
  });
});

describe("term rules", () => {
  it("normalizes: trimmed, lower-cased, single spaces", () => {
    expect(normalizeTerm("  Time \t ZONE ")).toBe("time zone");
  });

  it("refuses empty terms, * anywhere but the end, and terms with no letter or digit", () => {
    expect(termProblem("")).toMatch(/empty/);
    expect(termProblem("lo*cat")).toMatch(/only end/);
    expect(termProblem("*")).toMatch(/no letter or digit/);
    expect(termProblem("?!")).toMatch(/no letter or digit/);
    expect(termProblem("time *")).toMatch(/prefix must end/);
    expect(termProblem("x".repeat(101))).toMatch(/at most 100/);
    expect(termProblem("locat*")).toBeNull();
    expect(termProblem("time zone")).toBeNull();
  });
});
