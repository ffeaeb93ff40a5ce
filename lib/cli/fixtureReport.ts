import type { RerunItem, RerunReport } from "../../db/queries/fixtureRuns";
import { scorerChanges } from "../fixtures/configuration";
import { passRateText } from "../fixtures/rerun";

const short = (identity: string) => identity.slice(0, 12);

function itemLine(tag: string, x: RerunItem): string {
  const why = x.why && !x.passed ? `: ${x.why.text}` : "";
  return `  ${tag.padEnd(6)} ${short(x.identity)}  ${x.probe} ${x.field}  expected ${x.expected}, got ${x.label}${why}`;
}

/** A re-run as `fixtures check` prints it: the set's line, then each flip and each failure. */
export function rerunText(r: RerunReport): string[] {
  const { run, previous } = r;
  const flips = run.broke + run.fixed;
  let head = `${r.set.name}: ${passRateText(run.passed, run.total)}`;
  if (flips > 0) {
    const parts = [run.broke ? `${run.broke} broke` : "", run.fixed ? `${run.fixed} fixed` : ""].filter(
      Boolean,
    );
    head += `, ${flips} FLIP${flips === 1 ? "" : "S"} (${parts.join(", ")}) since the previous re-run`;
  }
  if (run.added > 0 && previous) head += `, ${run.added} new`;
  const out = [head, `  scorer ${run.scorerVersion}`];
  if (previous) {
    const changed = scorerChanges(previous.versions, run.versions);
    if (changed.length) out.push(`  scorer changed since the previous re-run: ${changed.join("; ")}`);
  }
  for (const x of r.flips) if (x.change === "broke") out.push(itemLine("BROKE", x));
  for (const x of r.flips) if (x.change === "fixed") out.push(itemLine("FIXED", x));
  for (const x of r.failures) if (x.change !== "broke") out.push(itemLine("FAIL", x));
  return out;
}

const itemJson = (x: RerunItem) => ({
  identity: x.identity,
  probe: x.probe,
  field: x.field,
  expected: x.expected,
  label: x.label,
  change: x.change,
  why: x.why,
});

/** A re-run as `fixtures check --json` prints it: one line per set. */
export function rerunJson(r: RerunReport) {
  const { run, stats } = r;
  return {
    set: r.set.name,
    rerun: run.id,
    scorer_version: run.scorerVersion,
    total: run.total,
    passed: run.passed,
    failed: run.failed,
    broke: run.broke,
    fixed: run.fixed,
    new: run.added,
    kappa: stats.kappa.kappa,
    labels: stats.labels
      .filter((l) => l.ours > 0 || l.human > 0)
      .map((l) => ({ label: l.label, precision: l.precision, recall: l.recall })),
    previous: r.previous ? { rerun: r.previous.id, scorer_version: r.previous.scorerVersion } : null,
    failures: r.failures.map(itemJson),
    flips: r.flips.map(itemJson),
  };
}
