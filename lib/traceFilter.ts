import { z } from "zod";
import { GATE_VERDICTS } from "./gate/decide";
import { AGREEMENT, ANY_FIELD, tag } from "./ingest/tags";
import { LABELS } from "./probe/schema";
import { FIELD_FLAGS, INJECT_REASONS, TRACE_FLAGS } from "./probe/score";
import { HUMAN_FILTER_ALIASES, HUMAN_FILTERS } from "./review/humanFilter";

export { AGREEMENT, GATE_VERDICTS };
export const FLAG_OPTIONS = [...TRACE_FLAGS, ...FIELD_FLAGS] as const;

const optional = <T extends z.ZodType>(s: T) =>
  z.preprocess(
    (v) =>
      v === "" || v === undefined || (Array.isArray(v) && v.length === 0)
        ? undefined
        : Array.isArray(v)
          ? v[0]
          : v,
    s.optional(),
  );

/** A run page's filter, as it lives in the URL. Unknown values are dropped, never an error page. */
export const TraceFilterSchema = z.object({
  field: optional(z.string().max(200)),
  label: optional(z.enum(LABELS)).catch(undefined),
  reason: optional(z.enum(INJECT_REASONS)).catch(undefined),
  flag: optional(z.enum(FLAG_OPTIONS)).catch(undefined),
  gate: optional(z.enum(GATE_VERDICTS)).catch(undefined),
  /** The current human label (review, else imported): a label, reviewed, unreviewed, differs, agree. */
  human: optional(
    z.preprocess((v) => (typeof v === "string" ? (HUMAN_FILTER_ALIASES[v] ?? v) : v), z.enum(HUMAN_FILTERS)),
  ).catch(undefined),
  recorded: optional(z.enum(AGREEMENT)).catch(undefined),
  probe: optional(z.string().max(200)),
  q: optional(z.string().max(200)),
  after: optional(z.coerce.number().int().positive()).catch(undefined),
  before: optional(z.coerce.number().int().positive()).catch(undefined),
});
export type TraceFilter = z.infer<typeof TraceFilterSchema>;

export function parseTraceFilter(params: Record<string, string | string[] | undefined>): TraceFilter {
  return TraceFilterSchema.parse(params);
}

/** The tags a filter requires (per-field ones need the field). */
export function filterTags(f: TraceFilter, field: string | null): string[] {
  const tags: string[] = [];
  if (f.probe) tags.push(tag.probe(f.probe));
  if (f.gate) tags.push(tag.gate(f.gate));
  if (f.flag) {
    if ((TRACE_FLAGS as readonly string[]).includes(f.flag)) tags.push(tag.flag(f.flag));
    else if (field) tags.push(tag.fieldFlag(field, f.flag));
  }
  if (field) {
    if (f.label) tags.push(tag.label(field, f.label));
    if (f.reason) tags.push(tag.reason(field, f.reason));
    if (f.human === "agree" || f.human === "differs") tags.push(tag.human(field, f.human === "agree"));
    else if (f.human === "reviewed") tags.push(tag.review(field, "reviewed"));
    else if (f.human && f.human !== "unreviewed") tags.push(tag.humanLabel(field, f.human));
    if (f.recorded) tags.push(tag.recorded(field, f.recorded === "agree"));
  }
  return tags;
}

/**
 * The tag a matching trace must NOT carry (`human=unreviewed`: no current review of the field),
 * with the field the trace must probe when no other per-field tag of the filter says it does
 * (null for any field, where "unreviewed" means no field of the trace is reviewed).
 */
export function filterExclusion(
  f: TraceFilter,
  field: string | null,
): { tag: string; mustProbe: string | null } | null {
  if (f.human !== "unreviewed" || !field) return null;
  const perFieldTag = Boolean(
    f.label || f.reason || f.recorded || (f.flag && !(TRACE_FLAGS as readonly string[]).includes(f.flag)),
  );
  return { tag: tag.review(field, "reviewed"), mustProbe: field === ANY_FIELD || perFieldTag ? null : field };
}

/** The filter as URL search parameters (without paging unless asked). */
export function filterToParams(f: TraceFilter, keepPaging = false): URLSearchParams {
  const p = new URLSearchParams();
  for (const k of ["field", "label", "reason", "flag", "gate", "human", "recorded", "probe", "q"] as const) {
    const v = f[k];
    if (v !== undefined && v !== "") p.set(k, String(v));
  }
  if (keepPaging) {
    if (f.after) p.set("after", String(f.after));
    if (f.before) p.set("before", String(f.before));
  }
  return p;
}

export function hasFilter(f: TraceFilter): boolean {
  return (
    filterToParams(f).toString() !== "" &&
    !(filterToParams(f).toString() === `field=${encodeURIComponent(f.field ?? "")}`)
  );
}
