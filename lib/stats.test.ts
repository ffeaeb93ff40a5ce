import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sharePct, wilson } from "./stats";

describe("wilson", () => {
  it("matches known values", () => {
    const r = wilson(5, 10);
    expect(r.low).toBeCloseTo(0.2366, 3);
    expect(r.high).toBeCloseTo(0.7634, 3);
    const z = wilson(0, 3);
    expect(z.low).toBe(0);
    expect(z.high).toBeCloseTo(0.5615, 3);
  });
  it("a 3-sample rate is far wider than a 3,000-sample one", () => {
    const small = wilson(1, 3);
    const big = wilson(1000, 3000);
    expect(small.high - small.low).toBeGreaterThan(5 * (big.high - big.low));
  });
  it("always holds the rate and stays within [0, 1]", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100000 }), fc.nat(), (n, k0) => {
        const k = k0 % (n + 1);
        const r = wilson(k, n);
        expect(r.low).toBeGreaterThanOrEqual(0);
        expect(r.high).toBeLessThanOrEqual(1);
        expect(r.low).toBeLessThanOrEqual(r.rate + 1e-12);
        expect(r.high).toBeGreaterThanOrEqual(r.rate - 1e-12);
      }),
    );
  });
  it("says nothing is known with no samples", () => {
    expect(wilson(0, 0)).toEqual({ k: 0, n: 0, rate: 0, low: 0, high: 1 });
  });
});

describe("twoProportionZ", () => {
  it("is about 2.0 for 40/100 → 54/100 and 0 for no change", async () => {
    const { twoProportionZ } = await import("./stats");
    expect(twoProportionZ(40, 100, 54, 100)).toBeCloseTo(1.98, 1);
    expect(twoProportionZ(10, 50, 20, 100)).toBe(0);
    expect(twoProportionZ(0, 0, 1, 3)).toBeUndefined();
  });
});

describe("rateChange (the compare page's test, shared with assumeprobe check)", () => {
  it("is beyond noise past |z| = 1.96, with the signed change", async () => {
    const { rateChange } = await import("./stats");
    expect(rateChange(40, 100, 54, 100)).toMatchObject({ beyondNoise: true });
    expect(rateChange(40, 100, 54, 100).delta).toBeCloseTo(0.14, 10);
    expect(rateChange(40, 100, 50, 100).beyondNoise).toBe(false);
    expect(rateChange(54, 100, 40, 100)).toMatchObject({ beyondNoise: true });
    expect(rateChange(0, 0, 3, 3)).toEqual({ delta: 1, z: undefined, beyondNoise: false });
  });
});

describe("sharePct", () => {
  it("rounds to a tenth, without trailing zeros", () => {
    expect(sharePct(25, 27)).toBe("92.6%");
    expect(sharePct(2, 3)).toBe("66.7%");
    expect(sharePct(1, 3)).toBe("33.3%");
    expect(sharePct(3, 4)).toBe("75%");
    expect(sharePct(0, 5)).toBe("0%");
    expect(sharePct(5, 5)).toBe("100%");
    expect(sharePct(0, 0)).toBe("none");
  });
  it("never reads whole short of whole, nor none above none", () => {
    expect(sharePct(1999, 2000)).toBe("99.9%");
    expect(sharePct(1, 20000)).toBe("0.1%");
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 1_000_000 }), (n, k0) => {
        const k = k0 % (n + 1);
        const shown = Number.parseFloat(sharePct(k, n));
        expect(Math.abs(shown - (100 * k) / n)).toBeLessThanOrEqual(0.1 + 1e-9);
        expect(shown === 100).toBe(k === n);
        expect(shown === 0).toBe(k === 0);
      }),
    );
  });
});
