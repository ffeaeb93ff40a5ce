import { describe, expect, it } from "vitest";
import { Rng } from "../generate/rng";
import { interRater, type ReviewPattern } from "./interRater";
import { binomial, multinomial } from "./multinomial";

/** Patterns from a reliability data matrix: one row per reviewer, one column per field, null where missing. */
function fromMatrix(rows: Record<string, (string | null)[]>): ReviewPattern[] {
  const width = Math.max(...Object.values(rows).map((r) => r.length));
  const out: ReviewPattern[] = [];
  for (let u = 0; u < width; u++) {
    const reviews = Object.entries(rows)
      .filter(([, r]) => r[u] !== null && r[u] !== undefined)
      .map(([reviewer, r]) => ({ reviewer, label: r[u] as string }));
    out.push({ reviews, n: 1 });
  }
  return out;
}

/** A two-reviewer table: [label of a, label of b, fields]. */
const twoReviewers = (cells: [string, string, number][]): ReviewPattern[] =>
  cells.map(([x, y, n]) => ({
    reviews: [
      { reviewer: "a", label: x },
      { reviewer: "b", label: y },
    ],
    n,
  }));

describe("Krippendorff's alpha (nominal), against the published examples", () => {
  // Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. Annenberg School for
  // Communication, University of Pennsylvania. Section C, "Nominal data, any number of observers,
  // missing values": four observers, twelve units, values 1..5; alpha = 0.743. Unit 12 has one
  // value only and is not pairable.
  const paper = fromMatrix({
    A: ["1", "2", "3", "3", "2", "1", "4", "1", "2", null, null, null],
    B: ["1", "2", "3", "3", "2", "2", "4", "1", "2", "5", null, "3"],
    C: [null, "3", "3", "3", "2", "3", "4", "2", "2", "5", "1", null],
    D: ["1", "2", "3", "3", "2", "4", "4", "1", "2", "5", "1", null],
  });

  it("gives 0.743 on the four-observer example with missing values", () => {
    const r = interRater(paper, { replicates: 0 });
    expect(r.alpha.alpha).toBeCloseTo(0.743, 3);
    expect(r.alpha.fields).toBe(11);
    // The matrix holds 41 values; unit 12's single one is not pairable: n.. = 40, as in the paper.
    expect(r.alpha.values).toBe(40);
    expect(r.reviewers).toEqual(["A", "B", "C", "D"]);
  });

  // The same report, section A, "Binary data, two observers, no missing data": ten units,
  // alpha = 0.095.
  it("gives 0.095 on the two-observer binary example", () => {
    const r = interRater(
      fromMatrix({
        A: ["0", "1", "0", "0", "0", "0", "0", "0", "1", "0"],
        B: ["1", "1", "1", "0", "0", "1", "0", "0", "0", "0"],
      }),
      { replicates: 0 },
    );
    expect(r.alpha.alpha).toBeCloseTo(0.095, 3);
    expect(r.alpha.alpha).toBeCloseTo(1 - (19 * 8) / (2 * 14 * 6), 12);
  });

  it("says none when no field has two labels, or every label is the same", () => {
    expect(interRater([{ reviews: [{ reviewer: "a", label: "ASK" }], n: 9 }]).alpha.alpha).toBeNull();
    const same = interRater(twoReviewers([["ASK", "ASK", 5]]));
    expect(same.alpha.alpha).toBeNull();
    expect(same.alpha.interval).toBeNull();
    expect(same.fields).toBe(5);
  });
});

describe("Cohen's kappa per pair of reviewers, against published examples", () => {
  // Wikipedia, "Cohen's kappa", worked example: 50 grant proposals read by two readers, yes/yes 20,
  // yes/no 5, no/yes 10, no/no 15: p_o = 0.7, p_e = 0.5, kappa = 0.4.
  it("gives 0.4 on Wikipedia's 50-proposal example, with its count and confusion", () => {
    const r = interRater(
      twoReviewers([
        ["ASK", "ASK", 20],
        ["ASK", "DRIFT", 5],
        ["DRIFT", "ASK", 10],
        ["DRIFT", "DRIFT", 15],
      ]),
      { replicates: 0 },
    );
    expect(r.pairs).toHaveLength(1);
    const p = r.pairs[0];
    expect([p.a, p.b, p.n, p.agree]).toEqual(["a", "b", 50, 35]);
    expect(p.kappa.observed).toBeCloseTo(0.7, 12);
    expect(p.kappa.expected).toBeCloseTo(0.5, 12);
    expect(p.kappa.kappa).toBeCloseTo(0.4, 12);
    const ask = p.confusion.labels.indexOf("ASK");
    const drift = p.confusion.labels.indexOf("DRIFT");
    expect(p.confusion.cells[ask][drift]).toBe(5);
    expect(p.confusion.cells[drift][ask]).toBe(10);
  });

  // The same article, "Same percentages but different numbers": 45/15/25/15 gives 0.1304 and
  // 25/35/5/35 gives 0.2593, both with 60% agreement.
  it("gives 0.1304 and 0.2593 on Wikipedia's equal-agreement examples", () => {
    const k = (cells: [string, string, number][]) =>
      interRater(twoReviewers(cells), { replicates: 0 }).pairs[0].kappa.kappa;
    expect(
      k([
        ["ASK", "ASK", 45],
        ["ASK", "DRIFT", 15],
        ["DRIFT", "ASK", 25],
        ["DRIFT", "DRIFT", 15],
      ]),
    ).toBeCloseTo(0.1304, 4);
    expect(
      k([
        ["ASK", "ASK", 25],
        ["ASK", "DRIFT", 35],
        ["DRIFT", "ASK", 5],
        ["DRIFT", "DRIFT", 35],
      ]),
    ).toBeCloseTo(0.2593, 4);
  });

  it("takes every pair over the fields both reviewed, and pools per reviewer against the others", () => {
    const r = interRater([
      {
        reviews: [
          { reviewer: "ann", label: "ASK" },
          { reviewer: "bob", label: "ASK" },
          { reviewer: "cy", label: "DRIFT" },
        ],
        n: 3,
      },
      {
        reviews: [
          { reviewer: "bob", label: "DRIFT" },
          { reviewer: "ann", label: "DRIFT" },
        ],
        n: 2,
      },
      // A field one reviewer labelled alone counts nowhere.
      { reviews: [{ reviewer: "dee", label: "ASK" }], n: 7 },
    ]);
    expect(r.fields).toBe(5);
    expect(r.reviewers).toEqual(["ann", "bob", "cy"]);
    expect(r.pairs.map((p) => [p.a, p.b, p.n, p.agree])).toEqual([
      ["ann", "bob", 5, 5],
      ["ann", "cy", 3, 0],
      ["bob", "cy", 3, 0],
    ]);
    expect(r.pairs[0].kappa.kappa).toBe(1);
    const ann = r.perReviewer.find((x) => x.reviewer === "ann");
    expect(ann).toMatchObject({ fields: 5, comparisons: 8, agree: 5 });
    expect(ann?.rate.rate).toBeCloseTo(5 / 8, 12);
    const cy = r.perReviewer.find((x) => x.reviewer === "cy");
    expect(cy).toMatchObject({ fields: 3, comparisons: 6, agree: 0 });
    // Label pairs pooled over reviewer pairs: disagreements first.
    expect(r.labelPairs).toEqual([
      { a: "ASK", b: "DRIFT", n: 6 },
      { a: "ASK", b: "ASK", n: 3 },
      { a: "DRIFT", b: "DRIFT", n: 2 },
    ]);
  });
});

describe("the bootstrap intervals", () => {
  const wiki = twoReviewers([
    ["ASK", "ASK", 20],
    ["ASK", "DRIFT", 5],
    ["DRIFT", "ASK", 10],
    ["DRIFT", "DRIFT", 15],
  ]);

  it("bracket kappa about as wide as its large-sample standard error says", () => {
    // SE ≈ sqrt(p_o (1 - p_o) / (n (1 - p_e)^2)) = sqrt(0.21 / 12.5) ≈ 0.13: about 0.4 ± 0.25.
    const { interval } = interRater(wiki).pairs[0];
    expect(interval).not.toBeNull();
    expect(interval?.low).toBeGreaterThan(0.1);
    expect(interval?.low).toBeLessThan(0.22);
    expect(interval?.high).toBeGreaterThan(0.58);
    expect(interval?.high).toBeLessThan(0.7);
  });

  it("are the same for a seed, differ for another, and narrow with more fields", () => {
    const a = interRater(wiki, { seed: "s" });
    expect(interRater([...wiki].reverse(), { seed: "s" }).pairs[0].interval).toEqual(a.pairs[0].interval);
    expect(interRater(wiki, { seed: "t" }).pairs[0].interval).not.toEqual(a.pairs[0].interval);
    const big = interRater(
      wiki.map((p) => ({ ...p, n: p.n * 20_000 })),
      { seed: "s" },
    );
    const width = (i: { low: number; high: number } | null) => (i ? i.high - i.low : Number.NaN);
    // A million fields: sqrt(20,000) ≈ 141 times narrower.
    expect(big.fields).toBe(1_000_000);
    expect(width(big.pairs[0].interval)).toBeLessThan(width(a.pairs[0].interval) / 100);
    expect(big.pairs[0].interval?.low).toBeLessThan(0.4);
    expect(big.pairs[0].interval?.high).toBeGreaterThan(0.4);
    expect(width(big.alpha.interval)).toBeLessThan(width(a.alpha.interval) / 100);
    expect(big.alpha.interval?.low).toBeLessThan(big.alpha.alpha as number);
    expect(big.alpha.interval?.high).toBeGreaterThan(big.alpha.alpha as number);
  });
});

describe("the multinomial draw behind the bootstrap", () => {
  it("keeps the total and draws binomials with the right mean and variance, small and large", () => {
    const rng = new Rng("binomial");
    for (const [n, p] of [
      [40, 0.3],
      [1_000_000, 0.37],
      [1_000_000, 0.99],
    ] as const) {
      const xs = Array.from({ length: 4000 }, () => binomial(rng, n, p));
      const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
      const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (xs.length - 1);
      const sd = Math.sqrt(n * p * (1 - p));
      expect(Math.abs(mean - n * p)).toBeLessThan((4 * sd) / Math.sqrt(xs.length));
      expect(variance / (sd * sd)).toBeGreaterThan(0.9);
      expect(variance / (sd * sd)).toBeLessThan(1.1);
      expect(xs.every((x) => Number.isInteger(x) && x >= 0 && x <= n)).toBe(true);
    }
    const m = multinomial(rng, 1_000_000_000, [5, 0, 3, 2]);
    expect(m.reduce((s, x) => s + x, 0)).toBe(1_000_000_000);
    expect(m[1]).toBe(0);
    expect(m[0] / 1e9).toBeCloseTo(0.5, 3);
  });
});
