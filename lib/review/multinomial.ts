import type { Rng } from "../generate/rng";

/**
 * Exact draws from the binomial and multinomial distributions at a cost that does not grow with
 * n: what makes a bootstrap over a million fields cheap when it resamples the counts of the
 * distinct label patterns instead of the fields one by one.
 */

/** Binomial by inversion (walking the probability mass function up from 0): for a small mean. */
function binomialInversion(rng: Rng, n: number, p: number): number {
  const q = 1 - p;
  const s = p / q;
  let f = q ** n;
  let u = rng.next();
  let k = 0;
  while (u > f && k < n) {
    u -= f;
    f *= (s * (n - k)) / (k + 1);
    k++;
  }
  return k;
}

const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);

/** log k! − ((k + ½) log(k + 1) − (k + 1) + ½ log 2π): the tail of Stirling's series, exact below 10. */
const STIRLING_TAIL: readonly number[] = (() => {
  const out: number[] = [];
  let logFactorial = 0;
  for (let k = 0; k < 10; k++) {
    if (k > 0) logFactorial += Math.log(k);
    out.push(logFactorial - ((k + 0.5) * Math.log(k + 1) - (k + 1) + HALF_LOG_2PI));
  }
  return out;
})();

function stirlingTail(k: number): number {
  if (k < 10) return STIRLING_TAIL[k];
  const k1sq = (k + 1) * (k + 1);
  return (1 / 12 - (1 / 360 - 1 / 1260 / k1sq) / k1sq) / (k + 1);
}

/**
 * Binomial by transformed rejection with squeeze, BTRS (Hörmann, "The generation of binomial
 * random variates", J. Statist. Comput. Simul. 46, 1993): exact, a bounded expected number of
 * uniforms whatever n; needs n·p ≥ 10 and p ≤ ½.
 */
function binomialRejection(rng: Rng, n: number, p: number): number {
  const q = 1 - p;
  const spq = Math.sqrt(n * p * q);
  const b = 1.15 + 2.53 * spq;
  const a = -0.0873 + 0.0248 * b + 0.01 * p;
  const c = n * p + 0.5;
  const vr = 0.92 - 4.2 / b;
  const alpha = (2.83 + 5.1 / b) * spq;
  const lpq = Math.log(p / q);
  const m = Math.floor((n + 1) * p);
  const h = stirlingTail(m) + stirlingTail(n - m);
  for (;;) {
    const u = rng.next() - 0.5;
    let v = rng.next();
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + c);
    if (k < 0 || k > n) continue;
    if (us >= 0.07 && v <= vr) return k;
    v = Math.log((v * alpha) / (a / (us * us) + b));
    const bound =
      h -
      stirlingTail(k) -
      stirlingTail(n - k) +
      (m + 0.5) * Math.log((m + 1) / (n - m + 1)) +
      (n + 1) * Math.log((n - m + 1) / (n - k + 1)) +
      (k + 0.5) * Math.log((n - k + 1) / (k + 1)) +
      (k - m) * lpq;
    if (v <= bound) return k;
  }
}

/** Binomial(n, p), exact: inversion for a mean below 10, BTRS above (on the smaller of p and 1 − p). */
export function binomial(rng: Rng, n: number, p: number): number {
  if (n <= 0 || p <= 0) return 0;
  if (p >= 1) return n;
  const small = p <= 0.5 ? p : 1 - p;
  const k = n * small < 10 ? binomialInversion(rng, n, small) : binomialRejection(rng, n, small);
  return p <= 0.5 ? k : n - k;
}

/** A draw of n items over categories weighted `weights` (counts or shares), as conditional binomials. */
export function multinomial(rng: Rng, n: number, weights: readonly number[]): number[] {
  let left = n;
  let rest = 0;
  let last = -1;
  weights.forEach((w, i) => {
    if (w > 0) {
      rest += w;
      last = i;
    }
  });
  return weights.map((w, i) => {
    if (left === 0 || w <= 0) return 0;
    // The last category with weight takes what is left (no float residue lost).
    const x = i === last ? left : binomial(rng, left, Math.min(1, w / rest));
    left -= x;
    rest -= w;
    return x;
  });
}
