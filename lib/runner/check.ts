/**
 * `assumeprobe check`, the CI tripwire (DESIGN.md, "Interfaces"): maximum rates per label, and "no
 * worse than this baseline beyond sampling noise" by the compare page's test. A rate is the point
 * estimate over the run's traces probing the field (ERROR included), printed with its Wilson interval.
 */
import { LABEL_ORDER } from "../labelOrder";
import { LABELS, type Label } from "../probe/schema";
import { type Rate, rateChange, WORSE_WHEN_RISING, wilson } from "../stats";

/** A field's label counts, as the run's kept counts give them. */
export interface FieldLabelCounts {
  field: string;
  /** Traces with a label for the field. */
  n: number;
  labels: Partial<Record<Label, number>>;
}

export interface MaxRule {
  label: Label;
  max: number;
}

/** Parses `LABEL=RATE` (`INJECT=0.05`); a message that says what is wrong otherwise. */
export function parseMaxRule(s: string): MaxRule | string {
  const m = /^\s*([A-Za-z]+)\s*=\s*(.+?)\s*$/.exec(s);
  if (!m) return `--max takes LABEL=RATE (e.g. INJECT=0.05), got "${s}"`;
  const label = m[1].toUpperCase();
  if (!(LABELS as readonly string[]).includes(label))
    return `--max ${s}: ${m[1]} is not a label (${LABELS.join(", ")})`;
  const max = Number(m[2]);
  if (m[2] === "" || !Number.isFinite(max) || max < 0 || max > 1)
    return `--max ${s}: the rate is a fraction from 0 to 1 (0.05 for 5%), got "${m[2]}"`;
  return { label: label as Label, max };
}

export interface RateLine {
  field: string;
  label: Label;
  rate: Rate;
  /** The maximum it was held to, if any. */
  max?: number;
  /** Over its maximum. */
  over: boolean;
  /** Against a baseline: its rate there and the test's verdict. */
  baseline?: { rate: Rate; delta: number; z: number | undefined; rose: boolean };
}

export interface CheckResult {
  lines: RateLine[];
  /** Fields of the run the baseline does not probe: not compared. */
  notInBaseline: string[];
  failures: RateLine[];
}

export interface CheckOptions {
  max: readonly MaxRule[];
  /** The baseline's fields, when checking against one. */
  against?: readonly FieldLabelCounts[];
}

/**
 * Every field's rates: each label it has (or that a rule names) with its interval; a label over its
 * maximum fails; against a baseline, INJECT, DRIFT and ERROR (and every label named in `max`) fail
 * when they rose beyond sampling noise.
 */
export function checkRates(fields: readonly FieldLabelCounts[], opts: CheckOptions): CheckResult {
  const limits = new Map(opts.max.map((r) => [r.label, r.max]));
  const compared = new Set<string>([...WORSE_WHEN_RISING, ...limits.keys()]);
  const lines: RateLine[] = [];
  const notInBaseline: string[] = [];
  for (const f of fields) {
    const base = opts.against?.find((b) => b.field === f.field);
    if (opts.against && !base) notInBaseline.push(f.field);
    for (const label of LABEL_ORDER) {
      const k = f.labels[label] ?? 0;
      const bk = base?.labels[label] ?? 0;
      const max = limits.get(label);
      if (k === 0 && bk === 0 && max === undefined) continue;
      const rate = wilson(k, f.n);
      const line: RateLine = { field: f.field, label, rate, over: max !== undefined && rate.rate > max };
      if (max !== undefined) line.max = max;
      if (base) {
        const change = rateChange(bk, base.n, k, f.n);
        line.baseline = {
          rate: wilson(bk, base.n),
          delta: change.delta,
          z: change.z,
          rose: compared.has(label) && change.beyondNoise && change.delta > 0,
        };
      }
      lines.push(line);
    }
  }
  const failures = lines.filter((l) => l.over || l.baseline?.rose === true);
  return { lines, notInBaseline, failures };
}
