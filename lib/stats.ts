/** A rate with the sample size behind it and its 95% Wilson score interval. */
export interface Rate {
  k: number;
  n: number;
  rate: number;
  low: number;
  high: number;
}

const Z = 1.959963984540054;

/** Wilson's interval: honest at small n (a 3-sample rate gets a wide interval) and never outside [0, 1]. */
export function wilson(k: number, n: number): Rate {
  if (n <= 0) return { k, n: 0, rate: 0, low: 0, high: 1 };
  const p = k / n;
  const z2 = Z * Z;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (Z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  // At k = 0 or k = n the bound is exact; floating point would leave a speck.
  const low = k === 0 ? 0 : Math.max(0, center - half);
  const high = k === n ? 1 : Math.min(1, center + half);
  return { k, n, rate: p, low, high };
}

/**
 * k of n as a percentage to `digits` decimals, rounded (25 of 27 is 92.6%, not 92.5%), without
 * trailing zeros (3 of 4 is 75%): the one form of a share on pages and on the command line. A share
 * short of whole never reads 100%, nor a share above none 0% (1,999 of 2,000 is 99.9%).
 */
export function sharePct(k: number, n: number, digits = 1): string {
  if (n <= 0) return "none";
  const step = 10 ** -digits;
  const x = Math.round((k / n) * 100 * 10 ** digits) / 10 ** digits;
  const shown = k < n && x >= 100 ? 100 - step : k > 0 && x <= 0 ? step : x;
  return `${Number(shown.toFixed(digits))}%`;
}

export function pct(x: number, digits = 0): string {
  return `${(x * 100).toFixed(digits)}%`;
}

/**
 * Two-proportion z statistic for k1/n1 → k2/n2 (pooled). |z| > 1.96 is a change unlikely to be
 * sampling noise at the 95% level; undefined when either side has no samples.
 */
export function twoProportionZ(k1: number, n1: number, k2: number, n2: number): number | undefined {
  if (n1 <= 0 || n2 <= 0) return undefined;
  const p = (k1 + k2) / (n1 + n2);
  const se = Math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2));
  if (se === 0) return 0;
  return (k2 / n2 - k1 / n1) / se;
}

/** Labels whose rise is a regression (the compare page colours their rise red; `check` fails on it). */
export const WORSE_WHEN_RISING: readonly string[] = ["INJECT", "DRIFT", "ERROR"];

export interface RateChange {
  /** after − before, as a fraction. */
  delta: number;
  z: number | undefined;
  /** |z| > 1.96: a move unlikely to be sampling noise at the 95% level. */
  beyondNoise: boolean;
}

/** The compare page's test for k1/n1 → k2/n2, shared with `assumeprobe check --against`. */
export function rateChange(k1: number, n1: number, k2: number, n2: number): RateChange {
  const delta = (n2 ? k2 / n2 : 0) - (n1 ? k1 / n1 : 0);
  const z = twoProportionZ(k1, n1, k2, n2);
  return { delta, z, beyondNoise: z !== undefined && Math.abs(z) > 1.96 };
}
