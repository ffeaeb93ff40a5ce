import { z } from "zod";
import { GATE_VERDICTS } from "./gate/decide";
import { AGREEMENT, tag } from "./ingest/tags";
import { LABELS } from "./probe/schema";
import { FIELD_FLAGS, INJECT_REASONS, TRACE_FLAGS } from "./probe/score";

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
  human: optional(z.enum(AGREEMENT)).catch(undefined),
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
    if (f.human) tags.push(tag.human(field, f.human === "agree"));
    if (f.recorded) tags.push(tag.recorded(field, f.recorded === "agree"));
  }
  return tags;
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
