import { describe, expect, it } from "vitest";
import { checkRates, type FieldLabelCounts, parseMaxRule } from "./check";

const field = (name: string, labels: FieldLabelCounts["labels"]): FieldLabelCounts => ({
  field: name,
  n: Object.values(labels).reduce((a, b) => a + (b ?? 0), 0),
  labels,
});

describe("parseMaxRule", () => {
  it.each([
    ["INJECT=0.05", { label: "INJECT", max: 0.05 }],
    ["inject=0", { label: "INJECT", max: 0 }],
    [" DRIFT = 1 ", { label: "DRIFT", max: 1 }],
  ])("%s", (s, rule) => {
    expect(parseMaxRule(s)).toEqual(rule);
  });
  it.each([
    ["INJECT", '--max takes LABEL=RATE (e.g. INJECT=0.05), got "INJECT"'],
    ["GUESS=0.1", "--max GUESS=0.1: GUESS is not a label (ASK, OMIT, COPY, INJECT, DRIFT, ERROR)"],
    ["INJECT=5%", '--max INJECT=5%: the rate is a fraction from 0 to 1 (0.05 for 5%), got "5%"'],
    ["INJECT=5", '--max INJECT=5: the rate is a fraction from 0 to 1 (0.05 for 5%), got "5"'],
    ["INJECT=-0.1", '--max INJECT=-0.1: the rate is a fraction from 0 to 1 (0.05 for 5%), got "-0.1"'],
  ])("%s is refused", (s, message) => {
    expect(parseMaxRule(s)).toBe(message);
  });
});

describe("maximum rates", () => {
  const run = [field("timezone", { INJECT: 6, ASK: 90, ERROR: 4 }), field("severity", { OMIT: 100 })];

  it("a rate is k/n over the field's traces, ERROR included, with its Wilson interval", () => {
    const r = checkRates(run, { max: [{ label: "INJECT", max: 0.05 }] });
    const inject = r.lines.find((l) => l.field === "timezone" && l.label === "INJECT");
    expect(inject?.rate).toMatchObject({ k: 6, n: 100, rate: 0.06 });
    expect(inject?.rate.low).toBeCloseTo(0.0278, 3);
    expect(inject?.rate.high).toBeCloseTo(0.1247, 3);
    expect(inject?.over).toBe(true);
    expect(r.failures.map((l) => `${l.field} ${l.label}`)).toEqual(["timezone INJECT"]);
  });

  it("a rate equal to its maximum passes; a field without the label is 0 and passes", () => {
    const r = checkRates(run, { max: [{ label: "INJECT", max: 0.06 }] });
    expect(r.failures).toEqual([]);
    const sev = r.lines.find((l) => l.field === "severity" && l.label === "INJECT");
    expect(sev).toMatchObject({ over: false, max: 0.06, rate: { k: 0, n: 100 } });
  });

  it("lists every label present, INJECT first", () => {
    const r = checkRates(run, { max: [] });
    expect(r.lines.filter((l) => l.field === "timezone").map((l) => l.label)).toEqual([
      "INJECT",
      "ASK",
      "ERROR",
    ]);
  });
});

describe("against a baseline, by the compare page's test", () => {
  const base = [field("timezone", { INJECT: 40, ASK: 60 })];

  it("fails when INJECT rose beyond sampling noise", () => {
    const r = checkRates([field("timezone", { INJECT: 54, ASK: 46 })], { max: [], against: base });
    const l = r.lines.find((x) => x.label === "INJECT");
    expect(l?.baseline?.z).toBeCloseTo(1.98, 1);
    expect(l?.baseline?.rose).toBe(true);
    // ASK fell beyond noise too: that is no failure.
    expect(r.failures.map((x) => x.label)).toEqual(["INJECT"]);
  });

  it("passes a rise within sampling noise", () => {
    const r = checkRates([field("timezone", { INJECT: 50, ASK: 50 })], { max: [], against: base });
    expect(r.failures).toEqual([]);
  });

  it("a small run's rise is noise that a big run's same rise is not", () => {
    const small = checkRates([field("timezone", { INJECT: 3, ASK: 2 })], {
      max: [],
      against: [field("timezone", { INJECT: 2, ASK: 3 })],
    });
    const big = checkRates([field("timezone", { INJECT: 600, ASK: 400 })], {
      max: [],
      against: [field("timezone", { INJECT: 400, ASK: 600 })],
    });
    expect([small.failures.length, big.failures.map((l) => l.label)]).toEqual([0, ["INJECT"]]);
  });

  it("DRIFT and ERROR count; other labels only when --max names them", () => {
    const after = [field("timezone", { DRIFT: 30, ERROR: 30, OMIT: 40 })];
    const before = [field("timezone", { OMIT: 100 })];
    expect(checkRates(after, { max: [], against: before }).failures.map((l) => l.label)).toEqual([
      "DRIFT",
      "ERROR",
    ]);
    const omitRise = checkRates([field("timezone", { OMIT: 90, ASK: 10 })], {
      max: [{ label: "OMIT", max: 1 }],
      against: [field("timezone", { OMIT: 10, ASK: 90 })],
    });
    expect(omitRise.failures.map((l) => l.label)).toEqual(["OMIT"]);
  });

  it("a field the baseline lacks is listed, not compared", () => {
    const r = checkRates([field("region", { INJECT: 9, OMIT: 1 })], { max: [], against: base });
    expect(r.notInBaseline).toEqual(["region"]);
    expect(r.failures).toEqual([]);
  });
});
