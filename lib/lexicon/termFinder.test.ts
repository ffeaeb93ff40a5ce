import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { termFinder } from "./termFinder";

describe("termFinder", () => {
  it("finds every occurrence of every term, overlapping ones included", () => {
    const f = termFinder(["he", "she", "his", "hers"]);
    const hits: [string, number, number][] = [];
    f.scan("ushers", (id, s, e) => {
      hits.push([f.terms[id], s, e]);
    });
    expect(hits).toEqual([
      ["she", 1, 4],
      ["he", 2, 4],
      ["hers", 2, 6],
    ]);
  });

  it("agrees with indexOf on any text and terms", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom("a", "b", " "), minLength: 1, maxLength: 4 }), {
          maxLength: 8,
        }),
        fc.string({ unit: fc.constantFrom("a", "b", " "), maxLength: 30 }),
        (ts, text) => {
          const uniq = [...new Set(ts)];
          const got = new Set<string>();
          termFinder(uniq).scan(text, (id, s, e) => {
            expect(text.slice(s, e)).toBe(uniq[id]);
            got.add(`${id}@${s}`);
          });
          const want = new Set<string>();
          uniq.forEach((t, id) => {
            for (let at = text.indexOf(t); at !== -1; at = text.indexOf(t, at + 1)) want.add(`${id}@${at}`);
          });
          expect(got).toEqual(want);
        },
      ),
    );
  });
});
