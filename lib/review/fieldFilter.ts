import { TRACE_FLAGS } from "../probe/score";
import type { TraceFilter } from "../traceFilter";
import { type HumanFilter, matchesHumanFilter } from "./humanFilter";
import { humanLabel, isReviewed } from "./humanLabel";

/**
 * Which fields of one trace a run page's filter selects, field by field (a bulk relabel writes
 * those). The trace-level parts (probe, gate, trace flag, search) are the query's; these are
 * the per-field ones: label, INJECT reason, field flag, recorded and human label. A filter on
 * "any field" selects each field that meets all of them itself.
 */
export interface FieldFacts {
  field: string;
  ours: string;
  reasons: readonly string[];
  /** The field's flags, its side effect's included. */
  flags: readonly string[];
  recorded: string | undefined;
  imported: string | undefined;
  /** The field's current review (as of when the selection was counted). */
  review: { label: string | null } | undefined;
}

export type FieldFilter = Pick<TraceFilter, "label" | "reason" | "flag" | "recorded" | "human">;

const isTraceFlag = (f: string) => (TRACE_FLAGS as readonly string[]).includes(f);

/** The filter's parts that depend on reviews. */
export function withoutHuman<T extends { human?: unknown }>(f: T): Omit<T, "human"> {
  const { human: _h, ...rest } = f;
  return rest;
}

/** Whether one field meets the filter's per-field parts. */
export function fieldMatches(f: FieldFilter, x: FieldFacts): boolean {
  if (f.label && x.ours !== f.label) return false;
  if (f.reason && !x.reasons.includes(f.reason)) return false;
  if (f.flag && !isTraceFlag(f.flag) && !x.flags.includes(f.flag)) return false;
  if (f.recorded) {
    if (x.recorded === undefined) return false;
    if ((x.recorded.toUpperCase() === x.ours) !== (f.recorded === "agree")) return false;
  }
  if (f.human) {
    const state = {
      ours: x.ours,
      human: humanLabel(x.review, x.imported)?.label,
      reviewed: isReviewed(x.review),
    };
    if (!matchesHumanFilter(f.human as HumanFilter, state)) return false;
  }
  return true;
}

/**
 * The fields a filter selects among a trace's fields: `field` alone, or, for any field (`*`),
 * each that matches. "Unreviewed" on any field means no field of the trace has a human label (as the
 * run page reads it), and then selects every field meeting the other parts.
 */
export function selectedFields(f: FieldFilter, field: string, facts: FieldFacts[]): FieldFacts[] {
  if (field !== "*") return facts.filter((x) => x.field === field && fieldMatches(f, x));
  if (f.human === "unreviewed") {
    if (facts.some((x) => humanLabel(x.review, x.imported) !== undefined)) return [];
    return facts.filter((x) => fieldMatches(withoutHuman(f), x));
  }
  return facts.filter((x) => fieldMatches(f, x));
}
