import { GATE_MISMATCH } from "./ingest/gateLogForm";
import { type Rate, wilson } from "./stats";

/** What a gate-log run's kept counts hold (db/queries/runs.ts folds them from its tags). */
export interface GateLogCounts {
  traceCount: number;
  gate: Record<string, number>;
  flags: Record<string, number>;
  gateUnknown: Record<string, number>;
  gateConflict: Record<string, number>;
}

/** A gate-log run's figures: decisions, the block rate with its 95% interval, the facts that blocked most. */
export interface GateLogFigures {
  decisions: number;
  blocked: Rate;
  mismatches: number;
  /** Facts that were unknown when a decision blocked, most often first (ties by name). */
  unknown: [string, number][];
  conflict: [string, number][];
}

const ranked = (counts: Record<string, number>, top: number): [string, number][] =>
  Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, top);

/** The figures of one run's counts, or of several runs' counts added up. */
export function gateLogFigures(runs: readonly GateLogCounts[], top = 3): GateLogFigures {
  let decisions = 0;
  let block = 0;
  let mismatches = 0;
  const unknown: Record<string, number> = {};
  const conflict: Record<string, number> = {};
  for (const r of runs) {
    decisions += r.traceCount;
    block += r.gate.block ?? 0;
    mismatches += r.flags[GATE_MISMATCH] ?? 0;
    for (const [k, n] of Object.entries(r.gateUnknown)) unknown[k] = (unknown[k] ?? 0) + n;
    for (const [k, n] of Object.entries(r.gateConflict)) conflict[k] = (conflict[k] ?? 0) + n;
  }
  return {
    decisions,
    blocked: wilson(block, decisions),
    mismatches,
    unknown: ranked(unknown, top),
    conflict: ranked(conflict, top),
  };
}
