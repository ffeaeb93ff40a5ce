import { LABELS } from "../probe/schema";

/**
 * How far the scorer agrees with human labels: a confusion matrix of ours against human,
 * precision and recall per label, and Cohen's kappa. Pure functions over counts, so the agreement
 * page, the overview and fixture-set re-runs compute them the same way.
 *
 * Conventions: rows are our label, columns the human label. A label's precision is the share of
 * the fields we gave it that humans gave it too; its recall the share of the fields humans gave it
 * that we gave it too. A figure whose denominator is 0 is null ("none"), never 0.
 */

/** How many fields have our label `ours` and the human label `human`. */
export interface PairCount {
  ours: string;
  human: string;
  n: number;
}

export interface Confusion {
  /** Row and column labels, in DESIGN.md's order, then any other label seen (sorted). */
  labels: string[];
  /** cells[i][j]: fields we labelled labels[i] and humans labels[j]. */
  cells: number[][];
  /** Every field counted. */
  total: number;
  /** Fields on the diagonal. */
  agree: number;
}

/** Adds up pair counts into a matrix over the six labels (and any other label present). */
export function confusionMatrix(pairs: Iterable<PairCount>, base: readonly string[] = LABELS): Confusion {
  const list = [...pairs];
  const extra = new Set<string>();
  for (const p of list) {
    if (!base.includes(p.ours)) extra.add(p.ours);
    if (!base.includes(p.human)) extra.add(p.human);
  }
  const labels = [...base, ...[...extra].sort()];
  const index = new Map(labels.map((l, i) => [l, i]));
  const cells = labels.map(() => labels.map(() => 0));
  let total = 0;
  let agree = 0;
  for (const p of list) {
    if (p.n === 0) continue;
    cells[index.get(p.ours) as number][index.get(p.human) as number] += p.n;
    total += p.n;
    if (p.ours === p.human) agree += p.n;
  }
  return { labels, cells, total, agree };
}

export interface LabelScore {
  label: string;
  /** Fields we gave the label. */
  ours: number;
  /** Fields humans gave the label. */
  human: number;
  /** Fields both gave it. */
  both: number;
  /** both / ours; null when we never gave it. */
  precision: number | null;
  /** both / human; null when humans never gave it. */
  recall: number | null;
}

/** Precision and recall of every label of the matrix. */
export function precisionRecall(c: Confusion): LabelScore[] {
  return c.labels.map((label, i) => {
    let ours = 0;
    let human = 0;
    for (let j = 0; j < c.labels.length; j++) {
      ours += c.cells[i][j];
      human += c.cells[j][i];
    }
    const both = c.cells[i][i];
    return {
      label,
      ours,
      human,
      both,
      precision: ours === 0 ? null : both / ours,
      recall: human === 0 ? null : both / human,
    };
  });
}

export interface Kappa {
  /**
   * Cohen's kappa, (observed - expected) / (1 - expected); null when no field is comparable, or
   * when chance alone explains all agreement (both sides gave every field one and the same label:
   * expected agreement is 1 and kappa is undefined).
   */
  kappa: number | null;
  /** The fields it rests on. */
  n: number;
  /** Observed agreement (the share on the diagonal); null when n is 0. */
  observed: number | null;
  /** Agreement expected by chance from the two sides' label shares; null when n is 0. */
  expected: number | null;
}

export function cohenKappa(c: Confusion): Kappa {
  const n = c.total;
  if (n === 0) return { kappa: null, n, observed: null, expected: null };
  const observed = c.agree / n;
  let expected = 0;
  for (const s of precisionRecall(c)) expected += (s.ours / n) * (s.human / n);
  const kappa = expected >= 1 ? null : (observed - expected) / (1 - expected);
  return { kappa, n, observed, expected };
}
