import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AskText, fieldAsk } from "./ask";
import { foldText } from "./fold";
import { lexiconTermMatcher, substringMatcher, wordMatcher } from "./matcher";
import { holdsTerm, termMatches } from "./terms";

const lexicon = (terms: string[]) => ({
  version: 1,
  entries: { city: { terms, rule: "anywhere" as const } },
});

describe("lexicon terms across scripts (DESIGN.md: folded, substrings where words have no spaces)", () => {
  it("match a CJK or Thai term inside CJK or Thai text", () => {
    expect(holdsTerm("請問您的時區是哪個？", "時區")).toBe(true);
    expect(holdsTerm("タイムゾーンを教えてください", "タイムゾーン")).toBe(true);
    expect(holdsTerm("กรุณาบอกเขตเวลาของคุณ", "เขตเวลา")).toBe(true);
    expect(holdsTerm("請問您的時間是", "時區")).toBe(false);
  });

  it("match a Latin term right beside CJK text, never inside a Latin word", () => {
    expect(holdsTerm("请提供timezone信息", "timezone")).toBe(true);
    expect(holdsTerm("mytimezone", "timezone")).toBe(false);
  });

  it("meet İstanbul and istanbul, café and cafe, on both sides", () => {
    expect(holdsTerm("are you in i̇stanbul?", "istanbul")).toBe(true);
    expect(holdsTerm("İSTANBUL?".toLowerCase(), "İstanbul".toLowerCase())).toBe(true);
    expect(holdsTerm("a cafe nearby", "café")).toBe(true);
    expect(holdsTerm("a cafe\u0301 nearby", "cafe")).toBe(true);
    expect(holdsTerm("the istanbuls", "istanbul")).toBe(false);
  });

  it("highlight at the offsets of the text as given, whatever folding dropped", () => {
    const text = "at i̇stanbul  office".toLowerCase();
    const [m] = termMatches(text, ["istanbul"]);
    expect(text.slice(m.start, m.end)).toBe("i̇stanbul");
    const [w] = termMatches("which time\n\n zone?", ["time zone"]);
    expect(w).toEqual({ start: 6, end: 17, term: "time zone" });
  });

  it("leave a probe's own terms to the seed's lower-casing: İstanbul is not istanbul there", () => {
    const ask = fieldAsk(["istanbul"], lexicon([]), "city");
    expect(ask.asks(new AskText("are you in İstanbul?".toLowerCase()))).toBe(false);
    const withLexicon = fieldAsk(["city"], lexicon(["istanbul"]), "city");
    expect(withLexicon.asks(new AskText("are you in İstanbul?".toLowerCase()))).toBe(true);
    expect(withLexicon.found(new AskText("are you in İstanbul?".toLowerCase()))).toEqual(["istanbul"]);
  });
});

/** The rule written out term by term: every occurrence, boundaries on the folded text. */
function naiveHolds(text: string, term: string): boolean {
  const folded = foldText(text).text;
  const prefix = term.endsWith("*");
  const body = foldText(prefix ? term.slice(0, -1) : term).text;
  const word = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}\p{M}_]/u.test(c);
  for (let at = folded.indexOf(body); at !== -1; at = folded.indexOf(body, at + 1)) {
    const end = at + body.length;
    if (!word(folded[at - 1]) && (prefix || !word(folded[end]))) return true;
  }
  return false;
}

describe("one matcher for a list of terms", () => {
  const unit = fc.constantFrom("a", "b", " ", "-", "_", "é", "\n");
  it("finds what the rule written out term by term finds, on any text and terms", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom("a", "b", "é"), minLength: 1, maxLength: 3 }), {
          maxLength: 6,
        }),
        fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
        fc.string({ unit, maxLength: 30 }),
        (bodies, stars, text) => {
          const terms = [...new Set(bodies.map((b, i) => (stars[i] ? `${b}*` : b)))];
          const m = wordMatcher(terms);
          const found = new Set<number>();
          m.scan(foldText(text).text, (id) => {
            found.add(id);
          });
          terms.forEach((t, id) => expect(found.has(id)).toBe(naiveHolds(text, t)));
          expect(m.test(foldText(text).text)).toBe(terms.some((t) => naiveHolds(text, t)));
        },
      ),
    );
  });

  it("finds a probe's terms as substrings, few or many, as indexOf does", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom("a", "b", " "), minLength: 1, maxLength: 3 }), {
          maxLength: 12,
        }),
        fc.string({ unit: fc.constantFrom("a", "b", " "), maxLength: 30 }),
        (terms, text) => {
          const m = substringMatcher(terms);
          const found = new Set<number>();
          m.scan(text, (id) => {
            found.add(id);
          });
          terms.forEach((t, id) => expect(found.has(id)).toBe(text.includes(t)));
          expect(m.test(text)).toBe(terms.some((t) => text.includes(t)));
        },
      ),
    );
  });

  it("reads a text once: its work grows with the text, not with the number of terms", () => {
    const text = "please tell me which region and time zone you are in, and where you are located. ".repeat(
      50,
    );
    const folded = foldText(text).text;
    const work = (n: number) => {
      const terms = Array.from({ length: n }, (_, i) => `term${i} word${i % 7}`);
      terms.push("located", "time zone");
      return lexiconTermMatcher(terms).scan(folded, () => undefined);
    };
    const w500 = work(500);
    const w5000 = work(5_000);
    // Each code unit costs one transition plus the failure links it follows (amortized: at most one
    // per transition) plus the occurrences found: at most about twice the text's length here.
    expect(w500).toBeLessThanOrEqual(2 * folded.length + 200);
    expect(w5000).toBeLessThanOrEqual(2 * folded.length + 200);
  });
});
