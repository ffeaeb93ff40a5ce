import type { RescoreReport } from "../../db/queries/rescore/jobs";
import { describeTransitions } from "../probe/transitions";
import type { WhatIfReport } from "../tuning/whatIf";

const n = (x: number) => x.toLocaleString("en-US");
const short = (identity: string) => identity.slice(0, 12);

/** The what-if as lines for a terminal: fixtures fixed and broken per set, then label moves per field. */
export function whatIfLines(r: WhatIfReport): string[] {
  const out = [`what-if: ${r.change}`];
  const f = r.fixtures;
  out.push(
    `fixtures: ${n(f.touched)} touched, ${n(f.fixed)} fixed, ${n(f.broken)} broken${f.seedBroken ? ` (${n(f.seedBroken)} in the seed set: a break)` : ""}`,
  );
  for (const s of f.sets) {
    if (s.fixed === 0 && s.broken === 0) continue;
    out.push(
      `  ${s.set}${s.seed ? " (seed)" : ""}: ${n(s.fixed)} fixed, ${n(s.broken)} broken of ${n(s.touched)}`,
    );
    for (const x of s.flips) {
      const kind = x.after === x.expected ? "fixed " : "BROKEN";
      out.push(
        `    ${kind} ${short(x.identity)} ${x.probe} ${x.field}: expected ${x.expected}, ${x.before} → ${x.after}`,
      );
    }
  }
  const t = r.traces;
  out.push(
    `traces: ${n(t.read)} read, ${n(t.scored)} scored again, ${n(t.moved)} labels move${t.moved ? ` (${n(t.agrees)} to a human label, ${n(t.disagrees)} away from one)` : ""}${t.missing ? `; ${n(t.missing)} scored by versions no longer stored` : ""}`,
  );
  for (const field of t.fields)
    for (const m of field.moves)
      out.push(
        `  ${field.field} ${m.from} → ${m.to}: ${n(m.count)}${m.agrees || m.disagrees ? ` (${n(m.agrees)} agree with a human label, ${n(m.disagrees)} disagree)` : ""}  e.g. trace ${m.examples.join(", ")}`,
      );
  for (const m of t.reasons)
    out.push(
      `  ${m.field} INJECT reasons ${m.from} → ${m.to}: ${n(m.count)}  e.g. trace ${m.examples.join(", ")}`,
    );
  if (t.reviewedAway)
    out.push(`reviewed fields moved away from their review: ${n(t.reviewedAway)} (a guarded move)`);
  for (const m of t.reviewed ?? [])
    out.push(`  REVIEWED trace ${m.trace} ${m.field}: reviewed ${m.review}, ${m.from} → ${m.to}`);
  if (t.importedAway) out.push(`imported labels moved away from: ${n(t.importedAway)} (shown, not guarded)`);
  out.push(`(${n(r.ms)} ms)`);
  return out;
}

/** One re-score's end in a line. */
export function rescoreLine(r: RescoreReport): string {
  const skipped = r.skipped ? `, ${n(r.skipped)} could not be re-read (kept as stored)` : "";
  const moves = r.changed > 0 ? `: ${describeTransitions(r.transitions)}` : "";
  return `${r.run}: ${n(r.scanned)} traces, ${n(r.checked)} scored again, ${n(r.changed)} changed${skipped}${moves}`;
}

/** A re-score as JSON for scripts. */
export function rescoreJson(r: RescoreReport) {
  return {
    id: r.id,
    run: r.run,
    status: r.status,
    scanned: r.scanned,
    checked: r.checked,
    changed: r.changed,
    skipped: r.skipped,
    transitions: r.transitions,
    plan: r.plan,
  };
}
