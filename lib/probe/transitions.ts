import type { TraceScore } from "./score";

/**
 * How re-scoring moved stored scores: per field, from label to label; trace flags gained and
 * lost; gate verdicts from and to. Only moves are counted (a trace whose score stays adds
 * nothing). Plain JSON, so a re-score keeps it beside its progress and adds to it batch by batch.
 */
export interface ScoreTransitions {
  /** field → from label → to label → traces. */
  fields: Record<string, Record<string, Record<string, number>>>;
  flags: { gained: Record<string, number>; lost: Record<string, number> };
  /** from verdict → to verdict → traces. */
  gate: Record<string, Record<string, number>>;
  /** A few trace ids per move (`field:FROM>TO`, `+flag`, `-flag`, `gate:FROM>TO`), in the order met. */
  examples: Record<string, number[]>;
}

export const EXAMPLES_PER_MOVE = 5;
/** A label for a field one side did not score (a new probe version may probe other fields). */
export const NOT_SCORED = "none";

export function emptyTransitions(): ScoreTransitions {
  return { fields: {}, flags: { gained: {}, lost: {} }, gate: {}, examples: {} };
}

function bump(to: Record<string, number>, key: string): void {
  to[key] = (to[key] ?? 0) + 1;
}

function example(t: ScoreTransitions, key: string, traceId: number): void {
  const list = t.examples[key] ?? [];
  if (list.length < EXAMPLES_PER_MOVE) list.push(traceId);
  t.examples[key] = list;
}

/** Adds one trace's move from `before` to `after` (nothing when neither labels, flags nor verdict moved). */
export function addTransition(
  t: ScoreTransitions,
  before: TraceScore,
  after: TraceScore,
  traceId: number,
): void {
  const fields = new Set([...Object.keys(before.fields), ...Object.keys(after.fields)]);
  for (const f of fields) {
    const from = before.fields[f]?.label ?? NOT_SCORED;
    const to = after.fields[f]?.label ?? NOT_SCORED;
    if (from === to) continue;
    const byFrom = t.fields[f] ?? {};
    t.fields[f] = byFrom;
    byFrom[from] = byFrom[from] ?? {};
    bump(byFrom[from], to);
    example(t, `${f}:${from}>${to}`, traceId);
  }
  const had = new Set<string>(before.flags);
  const has = new Set<string>(after.flags);
  for (const f of has)
    if (!had.has(f)) {
      bump(t.flags.gained, f);
      example(t, `+${f}`, traceId);
    }
  for (const f of had)
    if (!has.has(f)) {
      bump(t.flags.lost, f);
      example(t, `-${f}`, traceId);
    }
  const from = before.gate.verdict;
  const to = after.gate.verdict;
  if (from !== to) {
    t.gate[from] = t.gate[from] ?? {};
    bump(t.gate[from], to);
    example(t, `gate:${from}>${to}`, traceId);
  }
}

/** Traces whose label of a field moved, summed over every move. */
export function movedFields(t: ScoreTransitions): number {
  let n = 0;
  for (const byFrom of Object.values(t.fields))
    for (const byTo of Object.values(byFrom)) for (const c of Object.values(byTo)) n += c;
  return n;
}

/** The moves in a line: flags gained and lost, then label moves per field, largest first. */
export function describeTransitions(t: ScoreTransitions, max = 8): string {
  const parts: [string, number][] = [];
  for (const [f, n] of Object.entries(t.flags.gained)) parts.push([`+${f}`, n]);
  for (const [f, n] of Object.entries(t.flags.lost)) parts.push([`-${f}`, n]);
  for (const [field, byFrom] of Object.entries(t.fields))
    for (const [from, byTo] of Object.entries(byFrom))
      for (const [to, n] of Object.entries(byTo)) parts.push([`${field} ${from}→${to}`, n]);
  if (parts.length === 0) return "no label or flag moved";
  parts.sort((a, b) => b[1] - a[1]);
  const shown = parts.slice(0, max).map(([what, n]) => `${what} ${n.toLocaleString("en-US")}`);
  if (parts.length > max) shown.push(`${parts.length - max} more`);
  return shown.join(", ");
}
