import { describe, expect, it } from "vitest";
import { candidateGrams, wordCount } from "./grams";

const terms = (t: string) => candidateGrams(t).map((g) => g.term);

describe("candidateGrams", () => {
  it("takes the word 1-3-grams of the question sentences, lower-cased", () => {
    expect(terms("I can book it. Where are you located?")).toEqual([
      "where",
      "where are",
      "where are you",
      "are",
      "are you",
      "are you located",
      "you",
      "you located",
      "located",
    ]);
    expect(candidateGrams("I can book it. Where are you located?").every((g) => g.inQuestion)).toBe(true);
  });

  it("takes every sentence when the text holds no question", () => {
    const g = candidateGrams("Booked in Berlin time. Thanks");
    expect(g.map((x) => x.term)).toContain("berlin time");
    expect(g.map((x) => x.term)).toContain("thanks");
    expect(g.every((x) => !x.inQuestion)).toBe(true);
  });

  it("joins words only across white space, with one space, as the lexicon stores terms", () => {
    expect(terms("Which city, state?")).toEqual(["which", "which city", "city", "state"]);
    expect(terms("Which \t city?")).toEqual(["which", "which city", "city"]);
    for (const t of terms("Could you tell me the time-zone (UTC+2) or city? What's next?")) {
      expect("could you tell me the time-zone (utc+2) or city? what's next?".includes(t)).toBe(true);
    }
    expect(terms("What's next?")).toEqual(["what's", "what's next", "next"]);
  });

  it("gives each term once and none for an empty text", () => {
    expect(terms("Where? Where?")).toEqual(["where"]);
    expect(candidateGrams("")).toEqual([]);
    expect(candidateGrams(null)).toEqual([]);
  });

  it("counts words", () => {
    expect(wordCount("where are you")).toBe(3);
    expect(wordCount("what's")).toBe(1);
  });
});
