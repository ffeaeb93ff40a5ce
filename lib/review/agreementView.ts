import { groupOfProbe, type ProbeGroup } from "../probeGroups";
import { runHref } from "../runPath";
import {
  type Confusion,
  cohenKappa,
  confusionMatrix,
  type Kappa,
  type LabelScore,
  precisionRecall,
} from "./agreement";

/**
 * The agreement counts cut the ways the agreement page and the overview show them: per probe
 * group (lib/probeGroups.ts, the overview's probe filter), per probe and field, per model; and
 * where a matrix cell's fields are (the run page filtered by field, label and human label).
 */

/** One kept count: fields of a run's probe whose label is `ours` and whose current human label is `human`. */
export interface LabelledCount {
  run: string;
  model: string | null;
  probeId: string;
  field: string;
  ours: string;
  human: string;
  n: number;
}

export interface AgreementSummary {
  confusion: Confusion;
  kappa: Kappa;
  scores: LabelScore[];
  /** Fields where ours equals the human label. */
  agree: number;
  /** Fields with a human label. */
  total: number;
}

export function summarize(counts: readonly LabelledCount[]): AgreementSummary {
  const confusion = confusionMatrix(counts);
  return {
    confusion,
    kappa: cohenKappa(confusion),
    scores: precisionRecall(confusion),
    agree: confusion.agree,
    total: confusion.total,
  };
}

/** Counts split by a key, in first-seen order of the key unless sorted by the caller. */
export function splitBy<K>(
  counts: readonly LabelledCount[],
  key: (c: LabelledCount) => K,
): Map<K, LabelledCount[]> {
  const out = new Map<K, LabelledCount[]>();
  for (const c of counts) {
    const k = key(c);
    const list = out.get(k);
    if (list) list.push(c);
    else out.set(k, [c]);
  }
  return out;
}

export interface GroupAgreement {
  group: ProbeGroup;
  counts: LabelledCount[];
  summary: AgreementSummary;
}

/** Per probe group that has human labels, in the groups' order. */
export function agreementByGroup(
  counts: readonly LabelledCount[],
  groups: readonly ProbeGroup[],
): GroupAgreement[] {
  const byKey = splitBy(counts, (c) => groupOfProbe(groups, c.probeId)?.key ?? "");
  const out: GroupAgreement[] = [];
  for (const g of groups) {
    const list = byKey.get(g.key);
    if (list?.length) out.push({ group: g, counts: list, summary: summarize(list) });
  }
  return out;
}

export interface SliceAgreement {
  key: string;
  counts: LabelledCount[];
  summary: AgreementSummary;
}

/** Per probe and field (`probe\u0000field`), most disagreements first, then most human labels. */
export function agreementByProbeField(counts: readonly LabelledCount[]): SliceAgreement[] {
  const disagree = (x: SliceAgreement) => x.summary.total - x.summary.agree;
  return sorted(splitBy(counts, (c) => `${c.probeId}\u0000${c.field}`)).sort(
    (a, b) => disagree(b) - disagree(a),
  );
}

/** Per model (runs with no pinned model under ""), most human labels first. */
export function agreementByModel(counts: readonly LabelledCount[]): SliceAgreement[] {
  return sorted(splitBy(counts, (c) => c.model ?? ""));
}

function sorted(m: Map<string, LabelledCount[]>): SliceAgreement[] {
  return [...m]
    .map(([key, list]) => ({ key, counts: list, summary: summarize(list) }))
    .sort((a, b) => b.summary.total - a.summary.total || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Where a cell's fields are: one entry per run, probe and field, most fields first. */
export interface CellTarget {
  run: string;
  probeId: string;
  field: string;
  n: number;
}

export function cellTargets(counts: readonly LabelledCount[], ours: string, human: string): CellTarget[] {
  const m = new Map<string, CellTarget>();
  for (const c of counts) {
    if (c.ours !== ours || c.human !== human || c.n === 0) continue;
    const k = `${c.run}\u0000${c.probeId}\u0000${c.field}`;
    const t = m.get(k);
    if (t) t.n += c.n;
    else m.set(k, { run: c.run, probeId: c.probeId, field: c.field, n: c.n });
  }
  return [...m.values()].sort((a, b) => b.n - a.n || a.run.localeCompare(b.run));
}

/** The run page showing one target's fields: that field, our label, that human label, that probe. */
export function runPageHref(t: Omit<CellTarget, "n">, ours: string, human: string): string {
  const p = new URLSearchParams({ field: t.field, label: ours, human, probe: t.probeId });
  return runHref(t.run, p);
}
