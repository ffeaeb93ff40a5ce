import { Rng } from "../generate/rng";
import { LABELS } from "../probe/schema";
import { type Rate, wilson } from "../stats";
import { type Confusion, cohenKappa, confusionMatrix, type Kappa, type PairCount } from "./agreement";
import { multinomial } from "./multinomial";

/**
 * Agreement between reviewers (DESIGN.md, "Blind rounds"): Cohen's kappa per pair of reviewers
 * over the fields both reviewed, Krippendorff's alpha (nominal) over every field with two labels
 * or more, the confusion between reviewers per label pair, and per reviewer the agreement with
 * the others. Pure and fed with label patterns: how many fields got each combination of
 * (reviewer, label), which the database counts, so the cost depends on the number of distinct
 * patterns, never on the number of fields. The 95% intervals are percentile bootstraps that
 * resample those pattern counts (a multinomial draw), seeded, so the same data gives the same
 * interval.
 */

/** One reviewer's label of a field: the first blind review of that reviewer. */
export interface ReviewerLabel {
  reviewer: string;
  label: string;
}

/** `n` fields that each got exactly these labels, one per reviewer. */
export interface ReviewPattern {
  reviews: readonly ReviewerLabel[];
  n: number;
}

export interface Interval {
  low: number;
  high: number;
}

export interface PairAgreement {
  /** The pair, `a` before `b` in code-point order. */
  a: string;
  b: string;
  /** Fields both reviewed. */
  n: number;
  /** Fields both gave the same label. */
  agree: number;
  kappa: Kappa;
  /** 95% bootstrap interval of kappa; null when kappa is none or too few fields to resample. */
  interval: Interval | null;
  /** Rows: a's label; columns: b's label. */
  confusion: Confusion;
}

export interface Alpha {
  /** Krippendorff's alpha (nominal); null when no field has two labels or every label is one and the same. */
  alpha: number | null;
  /** Fields with two labels or more (the pairable units). */
  fields: number;
  /** The labels those fields hold (pairable values). */
  values: number;
  interval: Interval | null;
}

export interface ReviewerAgreement {
  reviewer: string;
  /** Fields this reviewer labelled that someone else labelled too. */
  fields: number;
  /** This reviewer's label against another's on the same field, counted once per other reviewer. */
  comparisons: number;
  agree: number;
  /** agree / comparisons, with its Wilson interval. */
  rate: Rate;
  /** Kappa of this reviewer's labels against the others' (pooled over the others). */
  kappa: Kappa;
}

/** Two labels that two reviewers gave one field, unordered (`a` first in label order), pooled over every pair. */
export interface LabelPair {
  a: string;
  b: string;
  n: number;
}

export interface InterRater {
  /** Fields with two labels or more. */
  fields: number;
  reviewers: string[];
  pairs: PairAgreement[];
  alpha: Alpha;
  perReviewer: ReviewerAgreement[];
  /** Every label pair seen, most frequent disagreement first, agreements after. */
  labelPairs: LabelPair[];
}

export interface BootstrapOptions {
  /** Resamples; 0 gives no intervals. */
  replicates?: number;
  seed?: string;
}

export const BOOTSTRAP_REPLICATES = 1000;
const MIN_BOOTSTRAP_N = 2;

const byCodePoint = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/** Labels in DESIGN.md's order, then any other (sorted). */
function labelRank(label: string): number {
  const i = (LABELS as readonly string[]).indexOf(label);
  return i < 0 ? LABELS.length : i;
}
const byLabel = (x: string, y: string) => labelRank(x) - labelRank(y) || byCodePoint(x, y);

/** The 2.5th and 97.5th percentiles of the defined values; null when fewer than half are defined. */
function percentileInterval(xs: (number | null)[]): Interval | null {
  const ok = xs.filter((x): x is number => x !== null && Number.isFinite(x)).sort((x, y) => x - y);
  if (ok.length === 0 || ok.length < xs.length / 2) return null;
  const at = (q: number) => ok[Math.min(ok.length - 1, Math.max(0, Math.round(q * (ok.length - 1))))];
  return { low: at(0.025), high: at(0.975) };
}

/** Resamples `counts` (a multinomial of their total) `replicates` times and returns the statistic's interval. */
function bootstrap(
  counts: readonly number[],
  stat: (resampled: readonly number[]) => number | null,
  o: Required<BootstrapOptions>,
  stream: string,
): Interval | null {
  const total = counts.reduce((s, n) => s + n, 0);
  if (o.replicates <= 0 || total < MIN_BOOTSTRAP_N) return null;
  const rng = new Rng(`${o.seed}\u0000${stream}`);
  const xs: (number | null)[] = [];
  for (let r = 0; r < o.replicates; r++) xs.push(stat(multinomial(rng, total, counts)));
  return percentileInterval(xs);
}

/** Cohen's kappa of pair counts (lib/review/agreement.ts: rows one side, columns the other). */
function kappaOf(pairs: readonly PairCount[]): { confusion: Confusion; kappa: Kappa } {
  const confusion = confusionMatrix(pairs);
  return { confusion, kappa: cohenKappa(confusion) };
}

/** Krippendorff's alpha from per-pattern label counts (nominal metric). */
interface AlphaPattern {
  /** Values per label index. */
  counts: number[];
  /** Σ_c count_c (count_c − 1) / (m − 1): the unit's coincidences on the diagonal. */
  diagonal: number;
}

function alphaOf(
  patterns: readonly AlphaPattern[],
  weights: readonly number[],
  labels: number,
): number | null {
  const nc = new Array<number>(labels).fill(0);
  let diagonal = 0;
  for (let i = 0; i < patterns.length; i++) {
    const w = weights[i];
    if (w === 0) continue;
    const p = patterns[i];
    diagonal += w * p.diagonal;
    for (let c = 0; c < labels; c++) nc[c] += w * p.counts[c];
  }
  const n = nc.reduce((s, x) => s + x, 0);
  if (n < 2) return null;
  const observed = n - diagonal; // Σ_{c≠k} o_ck
  const expected = n * n - nc.reduce((s, x) => s + x * x, 0); // Σ_{c≠k} n_c n_k
  if (expected <= 0) return null;
  return 1 - ((n - 1) * observed) / expected;
}

export function interRater(patterns: Iterable<ReviewPattern>, options: BootstrapOptions = {}): InterRater {
  const o = { replicates: options.replicates ?? BOOTSTRAP_REPLICATES, seed: options.seed ?? "agreement" };
  // Merge equal patterns (reviewers sorted, one label each), in a fixed order so the draws repeat.
  const merged = new Map<string, ReviewPattern>();
  for (const p of patterns) {
    if (p.n <= 0) continue;
    const seen = new Map<string, string>();
    for (const r of p.reviews) if (!seen.has(r.reviewer)) seen.set(r.reviewer, r.label);
    if (seen.size < 2) continue;
    const reviews = [...seen]
      .sort(([x], [y]) => byCodePoint(x, y))
      .map(([reviewer, label]) => ({ reviewer, label }));
    const key = JSON.stringify(reviews.map((r) => [r.reviewer, r.label]));
    const m = merged.get(key);
    merged.set(key, { reviews, n: (m?.n ?? 0) + p.n });
  }
  const units = [...merged].sort(([x], [y]) => byCodePoint(x, y)).map(([, p]) => p);

  // Per pair of reviewers: (label of a, label of b) → fields.
  const pairCells = new Map<string, Map<string, PairCount>>();
  // Per reviewer: (own label, another's label) → comparisons; and the fields shared.
  const mine = new Map<string, Map<string, PairCount>>();
  const shared = new Map<string, number>();
  const labelPairs = new Map<string, LabelPair>();
  const add = (m: Map<string, PairCount>, ours: string, human: string, n: number) => {
    const k = `${ours}\u0000${human}`;
    const c = m.get(k);
    if (c) c.n += n;
    else m.set(k, { ours, human, n });
  };
  const getOr = (m: Map<string, Map<string, PairCount>>, k: string) => {
    const v = m.get(k) ?? new Map<string, PairCount>();
    m.set(k, v);
    return v;
  };
  const reviewers = new Set<string>();
  let fields = 0;
  for (const u of units) {
    fields += u.n;
    const rs = u.reviews;
    for (let i = 0; i < rs.length; i++) {
      reviewers.add(rs[i].reviewer);
      shared.set(rs[i].reviewer, (shared.get(rs[i].reviewer) ?? 0) + u.n);
      for (let j = 0; j < rs.length; j++) {
        if (i === j) continue;
        add(getOr(mine, rs[i].reviewer), rs[i].label, rs[j].label, u.n);
        if (j < i) continue;
        const pk = `${rs[i].reviewer}\u0000${rs[j].reviewer}`;
        add(getOr(pairCells, pk), rs[i].label, rs[j].label, u.n);
        const [a, b] = [rs[i].label, rs[j].label].sort(byLabel);
        const lk = `${a}\u0000${b}`;
        const lp = labelPairs.get(lk);
        if (lp) lp.n += u.n;
        else labelPairs.set(lk, { a, b, n: u.n });
      }
    }
  }

  const pairs: PairAgreement[] = [...pairCells]
    .sort(([x], [y]) => byCodePoint(x, y))
    .map(([key, cells]) => {
      const [a, b] = key.split("\u0000");
      const list = [...cells.values()].sort(
        (x, y) => byCodePoint(x.ours, y.ours) || byCodePoint(x.human, y.human),
      );
      const { confusion, kappa } = kappaOf(list);
      // Resampled matrices reuse the point estimate's labels and cells: only the counts change.
      const at = list.map((c) => [confusion.labels.indexOf(c.ours), confusion.labels.indexOf(c.human)]);
      const resampled: Confusion = { ...confusion, cells: confusion.cells.map((r) => r.map(() => 0)) };
      const interval =
        kappa.kappa === null
          ? null
          : bootstrap(
              list.map((c) => c.n),
              (w) => {
                for (const row of resampled.cells) row.fill(0);
                resampled.agree = 0;
                for (let i = 0; i < at.length; i++) {
                  resampled.cells[at[i][0]][at[i][1]] += w[i];
                  if (at[i][0] === at[i][1]) resampled.agree += w[i];
                }
                return cohenKappa(resampled).kappa;
              },
              o,
              `pair\u0000${key}`,
            );
      return { a, b, n: confusion.total, agree: confusion.agree, kappa, interval, confusion };
    });

  // Alpha: the patterns of labels alone (who gave them does not matter).
  const labelIndex = new Map<string, number>();
  const byValues = new Map<string, { labels: string[]; n: number }>();
  for (const u of units) {
    const labels = u.reviews.map((r) => r.label).sort(byCodePoint);
    for (const l of labels) if (!labelIndex.has(l)) labelIndex.set(l, labelIndex.size);
    const k = labels.join("\u0000");
    const v = byValues.get(k);
    if (v) v.n += u.n;
    else byValues.set(k, { labels, n: u.n });
  }
  const valuePatterns = [...byValues].sort(([x], [y]) => byCodePoint(x, y)).map(([, v]) => v);
  const alphaPatterns: AlphaPattern[] = valuePatterns.map((v) => {
    const counts = new Array<number>(labelIndex.size).fill(0);
    for (const l of v.labels) counts[labelIndex.get(l) as number]++;
    const m = v.labels.length;
    return { counts, diagonal: counts.reduce((s, c) => s + (c * (c - 1)) / (m - 1), 0) };
  });
  const weights = valuePatterns.map((v) => v.n);
  const alphaValue = alphaOf(alphaPatterns, weights, labelIndex.size);
  const alpha: Alpha = {
    alpha: alphaValue,
    fields,
    values: valuePatterns.reduce((s, v) => s + v.n * v.labels.length, 0),
    interval:
      alphaValue === null
        ? null
        : bootstrap(weights, (w) => alphaOf(alphaPatterns, w, labelIndex.size), o, "alpha"),
  };

  const perReviewer: ReviewerAgreement[] = [...reviewers].sort(byCodePoint).map((reviewer) => {
    const { confusion, kappa } = kappaOf([...(mine.get(reviewer)?.values() ?? [])]);
    return {
      reviewer,
      fields: shared.get(reviewer) ?? 0,
      comparisons: confusion.total,
      agree: confusion.agree,
      rate: wilson(confusion.agree, confusion.total),
      kappa,
    };
  });

  return {
    fields,
    reviewers: [...reviewers].sort(byCodePoint),
    pairs,
    alpha,
    perReviewer,
    labelPairs: [...labelPairs.values()].sort(
      (x, y) =>
        Number(x.a === x.b) - Number(y.a === y.b) || y.n - x.n || byLabel(x.a, y.a) || byLabel(x.b, y.b),
    ),
  };
}

/** A figure to two decimals, or "none": the one form on the page and on the command line. */
export function figureText(x: number | null): string {
  return x === null ? "none" : x.toFixed(2);
}

/** A 95% interval as "0.61–0.78", or "none". */
export function intervalText(i: Interval | null): string {
  return i === null ? "none" : `${i.low.toFixed(2)}–${i.high.toFixed(2)}`;
}
