import { describe, expect, it } from "vitest";
import { cohenKappa, confusionMatrix, precisionRecall } from "./agreement";

const pairs = (rows: [string, string, number][]) => rows.map(([ours, human, n]) => ({ ours, human, n }));

describe("agreement statistics, against values worked out by hand", () => {
  // 50 fields: ASK/ASK 20, ASK/DRIFT 5, DRIFT/ASK 10, DRIFT/DRIFT 15 (ours/human).
  // observed 35/50 = 0.7; ours ASK 25, DRIFT 25; human ASK 30, DRIFT 20;
  // expected 0.5 * 0.6 + 0.5 * 0.4 = 0.5; kappa (0.7 - 0.5) / (1 - 0.5) = 0.4.
  const two = confusionMatrix(
    pairs([
      ["ASK", "ASK", 20],
      ["ASK", "DRIFT", 5],
      ["DRIFT", "ASK", 10],
      ["DRIFT", "DRIFT", 15],
    ]),
  );

  it("builds the matrix with ours as rows and the human label as columns, in label order", () => {
    expect(two.labels).toEqual(["ASK", "OMIT", "COPY", "INJECT", "DRIFT", "ERROR"]);
    expect(two.cells[0]).toEqual([20, 0, 0, 0, 5, 0]);
    expect(two.cells[4]).toEqual([10, 0, 0, 0, 15, 0]);
    expect(two.total).toBe(50);
    expect(two.agree).toBe(35);
  });

  it("gives precision and recall per label, none where nothing was given", () => {
    const byLabel = Object.fromEntries(precisionRecall(two).map((s) => [s.label, s]));
    expect(byLabel.ASK).toMatchObject({ ours: 25, human: 30, both: 20, precision: 0.8 });
    expect(byLabel.ASK.recall).toBeCloseTo(2 / 3, 12);
    expect(byLabel.DRIFT).toMatchObject({ ours: 25, human: 20, both: 15, precision: 0.6, recall: 0.75 });
    expect(byLabel.OMIT).toMatchObject({ ours: 0, human: 0, precision: null, recall: null });
  });

  it("computes Cohen's kappa with the count it rests on", () => {
    const k = cohenKappa(two);
    expect(k.n).toBe(50);
    expect(k.observed).toBeCloseTo(0.7, 12);
    expect(k.expected).toBeCloseTo(0.5, 12);
    expect(k.kappa).toBeCloseTo(0.4, 12);
  });

  it("computes kappa over three labels", () => {
    // INJECT/INJECT 10, INJECT/COPY 2, COPY/COPY 5, OMIT/OMIT 3, OMIT/INJECT 1: 21 fields, 18 agree.
    // ours INJECT 12, COPY 5, OMIT 4; human INJECT 11, COPY 7, OMIT 3; expected (132 + 35 + 12) / 441;
    // kappa (18/21 - 179/441) / (1 - 179/441) = 199/262.
    const c = confusionMatrix(
      pairs([
        ["INJECT", "INJECT", 10],
        ["INJECT", "COPY", 2],
        ["COPY", "COPY", 5],
        ["OMIT", "OMIT", 3],
        ["OMIT", "INJECT", 1],
      ]),
    );
    const k = cohenKappa(c);
    expect(k.n).toBe(21);
    expect(k.expected).toBeCloseTo(179 / 441, 12);
    expect(k.kappa).toBeCloseTo(199 / 262, 12);
    const inj = precisionRecall(c).find((s) => s.label === "INJECT");
    expect(inj).toMatchObject({ ours: 12, human: 11, both: 10 });
    expect(inj?.precision).toBeCloseTo(10 / 12, 12);
    expect(inj?.recall).toBeCloseTo(10 / 11, 12);
  });

  it("says none, not 0, when nothing is comparable", () => {
    const k = cohenKappa(confusionMatrix([]));
    expect(k).toEqual({ kappa: null, n: 0, observed: null, expected: null });
    // Zero counts are nothing too.
    expect(cohenKappa(confusionMatrix(pairs([["ASK", "DRIFT", 0]]))).kappa).toBe(null);
  });

  it("says none when chance explains all agreement, and -1 for complete disagreement", () => {
    const same = cohenKappa(confusionMatrix(pairs([["ASK", "ASK", 4]])));
    expect(same).toMatchObject({ kappa: null, n: 4, observed: 1, expected: 1 });
    const opposite = cohenKappa(
      confusionMatrix(
        pairs([
          ["ASK", "DRIFT", 5],
          ["DRIFT", "ASK", 5],
        ]),
      ),
    );
    expect(opposite.kappa).toBeCloseTo(-1, 12);
  });

  it("adds pairs given more than once, and keeps a label it does not know", () => {
    const c = confusionMatrix(
      pairs([
        ["ASK", "ASK", 1],
        ["ASK", "ASK", 2],
        ["ASK", "MAYBE", 1],
      ]),
    );
    expect(c.labels.at(-1)).toBe("MAYBE");
    expect(c.cells[0][0]).toBe(3);
    expect(c.cells[0][6]).toBe(1);
    expect(c.total).toBe(4);
  });
});
