import type { Rng } from "../generate/rng";

/**
 * Exact draws from the binomial and multinomial distributions, at a cost that grows with the
 * logarithm of n, never with n: what makes a bootstrap over a million fields cheap when it
 * resamples the counts of the distinct label patterns instead of the fields one by one.
 */

// Box-Muller gives normals in pairs: the second is kept for the next call on the same generator.
let spareOf: Rng | null = null;
let spare = 0;
function normal(rng: Rng): number {
  if (spareOf === rng) {
    spareOf = null;
    return spare;
  }
  const r = Math.sqrt(-2 * Math.log(1 - rng.next()));
  const t = 2 * Math.PI * rng.next();
  spareOf = rng;
  spare = r * Math.sin(t);
  return r * Math.cos(t);
}

/** Gamma(shape, 1) by Marsaglia and Tsang (2000); shape < 1 through Gamma(shape + 1) · U^(1/shape). */
function gamma(rng: Rng, shape: number): number {
  if (shape < 1) return gamma(rng, shape + 1) * (1 - rng.next()) ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal(rng);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = 1 - rng.next();
    if (u < 1 - 0.0331 * x ** 4) return d * v;
    if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** Beta(a, b) as a ratio of gammas. */
function beta(rng: Rng, a: number, b: number): number {
  const x = gamma(rng, a);
  return x / (x + gamma(rng, b));
}

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

/**
 * Above this variance n·p·(1 − p) a binomial is drawn as a rounded normal: the Berry–Esseen bound
 * on the error of its distribution function, 0.4748 · (p² + q²) / sqrt(n·p·q), is then below
 * 0.005, the size of the Monte Carlo error of a 2.5% percentile read from 1,000 resamples.
 */
export const NORMAL_MIN_VARIANCE = 10_000;

/**
 * Binomial(n, p). A large n is split by the median order statistic of n uniforms, a beta variate
 * (Knuth, The Art of Computer Programming vol. 2, 3.4.1, algorithm for the binomial
 * distribution), until the mean is small enough for inversion; exact, except that a part whose
 * variance reaches NORMAL_MIN_VARIANCE is drawn as a rounded normal.
 */
export function binomial(rng: Rng, n: number, p: number): number {
  if (n <= 0 || p <= 0) return 0;
  if (p >= 1) return n;
  let k = 0;
  for (;;) {
    if (n === 0) return k;
    const variance = n * p * (1 - p);
    if (variance >= NORMAL_MIN_VARIANCE)
      return k + Math.min(n, Math.max(0, Math.round(n * p + Math.sqrt(variance) * normal(rng))));
    const small = Math.min(p, 1 - p) * n;
    if (small < 30) {
      return p <= 0.5 ? k + binomialInversion(rng, n, p) : k + n - binomialInversion(rng, n, 1 - p);
    }
    const a = 1 + Math.floor(n / 2);
    const b = n + 1 - a;
    const x = beta(rng, a, b);
    if (x >= p) {
      n = a - 1;
      p = p / x;
    } else {
      k += a;
      n = b - 1;
      p = (p - x) / (1 - x);
    }
  }
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
