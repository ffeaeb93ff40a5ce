import { z } from "zod";
import { GATE_VERDICTS } from "./gate/decide";
import { GATE_LOG_FILTERS, GATE_MISMATCH } from "./ingest/gateLogForm";
import { AGREEMENT, ANY_FIELD, tag } from "./ingest/tags";
import { LABELS, PROBE_ID } from "./probe/schema";
import { FIELD_FLAGS, INJECT_REASONS, TRACE_FLAGS } from "./probe/score";
import { HUMAN_FILTER_ALIASES, HUMAN_FILTERS } from "./review/humanFilter";

export { AGREEMENT, GATE_LOG_FILTERS, GATE_VERDICTS };
export const FLAG_OPTIONS = [...TRACE_FLAGS, ...FIELD_FLAGS] as const;

/**
 * `human=` filters by the current human label (lib/review/humanFilter.ts): `reviewed` a field that
 * has one (a review, else an imported label), `unreviewed` one that has none. The run page and the
 * export resolve it here, so they agree.
 */
export { HUMAN_FILTERS };

const oneOf = <T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values, { error: () => `${name} must be one of ${values.join(", ")}` });

/** A keyset cursor: a trace id. */
const cursor = (name: string) =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, `${name} must be a trace id (a positive whole number)`)
    .transform(Number)
    .refine(Number.isSafeInteger, `${name} is too large to be a trace id`);

/** Each filter parameter of a run page (and of its export) and what it may hold. */
const FILTER_PARAMS = {
  field: z.string().max(200, "field is longer than 200 characters"),
  label: oneOf("label", LABELS),
  reason: oneOf("reason", INJECT_REASONS),
  flag: oneOf("flag", FLAG_OPTIONS),
  // A gate-log run's filter adds `mismatch`: the decisions our gate decides otherwise.
  gate: oneOf("gate", [...GATE_VERDICTS, "mismatch"] as const),
  human: z
    .string()
    .transform((v) => HUMAN_FILTER_ALIASES[v] ?? v)
    .pipe(oneOf("human", HUMAN_FILTERS)),
  recorded: oneOf("recorded", AGREEMENT),
  probe: z
    .string()
    .max(200, "probe is longer than 200 characters")
    .regex(PROBE_ID, "probe is not a probe id (letters, digits and _ . : @ -)"),
  q: z.string().max(200, "a search is at most 200 characters"),
  after: cursor("after"),
  before: cursor("before"),
} as const;

type FilterKey = keyof typeof FILTER_PARAMS;
const FILTER_KEYS = Object.keys(FILTER_PARAMS) as FilterKey[];

export type TraceFilter = { [K in FilterKey]?: z.output<(typeof FILTER_PARAMS)[K]> };

type Params = URLSearchParams | Record<string, string | string[] | undefined>;

function valuesOf(params: Params, key: string): string[] {
  if (params instanceof URLSearchParams) return params.getAll(key);
  const v = params[key];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

function readFilter(params: Params, strict: boolean): { filter: TraceFilter; errors: string[] } {
  const filter: Record<string, unknown> = {};
  const errors: string[] = [];
  for (const key of FILTER_KEYS) {
    const values = valuesOf(params, key);
    if (values.length > 1 && strict) errors.push(`${key} is given ${values.length} times`);
    const v = values[0];
    if (v === undefined || v === "") continue;
    const r = FILTER_PARAMS[key].safeParse(v);
    if (r.success) filter[key] = r.data;
    else errors.push(r.error.issues[0]?.message ?? `${key} is not valid`);
  }
  return { filter: filter as TraceFilter, errors };
}

/** A run page's filter, as it lives in the URL, or what is wrong with it (a request answered 400). */
export function checkTraceFilter(
  params: Params,
): { ok: true; filter: TraceFilter } | { ok: false; error: string } {
  const { filter, errors } = readFilter(params, true);
  return errors.length ? { ok: false, error: errors.join("; ") } : { ok: true, filter };
}

/**
 * A run page's filter, leniently: a value that is not valid is dropped. Requests with one are
 * answered 400 before a page renders (proxy.ts, through checkTraceFilter); this keeps a page whole
 * if one gets through.
 */
export function parseTraceFilter(params: Params): TraceFilter {
  return readFilter(params, false).filter;
}

/** The filter's field: the one it names when the run has it, else the run's default. */
export function filterField(filter: TraceFilter, fieldNames: string[], primary: string | null): string {
  if (filter.field && (filter.field === ANY_FIELD || fieldNames.includes(filter.field))) return filter.field;
  return fieldNames.length <= 3 ? (primary ?? ANY_FIELD) : ANY_FIELD;
}

/**
 * The tags a filter asks for: `all` a trace must carry, a group of which it must carry at least one
 * (`anyOf`), and `none` it may carry. Per-field ones need the field.
 */
export interface FilterTagSet {
  all: string[];
  anyOf: string[] | null;
  none: string[];
}

export function filterTagSet(f: TraceFilter, field: string | null): FilterTagSet {
  const set: FilterTagSet = { all: filterTags(f, field), anyOf: null, none: [] };
  if (field && (f.human === "reviewed" || f.human === "unreviewed")) {
    const any = [tag.human(field, true), tag.human(field, false)];
    if (f.human === "reviewed") set.anyOf = any;
    else {
      set.none = any;
      // A trace that does not probe the field is not an unreviewed field of it: it must carry one of the field's labels.
      if (field !== ANY_FIELD) set.anyOf = LABELS.map((l) => tag.label(field, l));
    }
  }
  return set;
}

/** The tags every matching trace carries (per-field ones need the field). */
export function filterTags(f: TraceFilter, field: string | null): string[] {
  const tags: string[] = [];
  if (f.probe) tags.push(tag.probe(f.probe));
  if (f.gate === "mismatch") tags.push(tag.flag(GATE_MISMATCH));
  else if (f.gate) tags.push(tag.gate(f.gate));
  if (f.flag) {
    if ((TRACE_FLAGS as readonly string[]).includes(f.flag)) tags.push(tag.flag(f.flag));
    else if (field) tags.push(tag.fieldFlag(field, f.flag));
  }
  if (field) {
    if (f.label) tags.push(tag.label(field, f.label));
    if (f.reason) tags.push(tag.reason(field, f.reason));
    if (f.human === "agree" || f.human === "differs") tags.push(tag.human(field, f.human === "agree"));
    else if (f.human && (LABELS as readonly string[]).includes(f.human))
      tags.push(tag.humanLabel(field, f.human));
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
