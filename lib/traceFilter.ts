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
  // `any` is the word for every field (the tag's `*` reads the same).
  field: z
    .string()
    .max(200, "field is longer than 200 characters")
    .transform((v) => (v.toLowerCase() === "any" ? ANY_FIELD : v)),
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

/**
 * Other names a parameter answers to, in the URL and on the command line alike: the command line
 * called the search `--search` and the page `q`, so each place takes both.
 */
export const FILTER_ALIASES: Readonly<Record<string, FilterKey>> = { search: "q" };

/** The filter's parameters as a sentence: `field, label, …, q (or search), after, before`. */
export function acceptedParams(extra: readonly string[] = []): string {
  const named = FILTER_KEYS.map((k) => {
    const aliases = Object.keys(FILTER_ALIASES).filter((a) => FILTER_ALIASES[a] === k);
    return aliases.length ? `${k} (or ${aliases.join(", ")})` : k;
  });
  return [...named, ...extra].join(", ");
}

/**
 * The parameters a filter does not know, each as a notice naming the ones it does: a page shows
 * them, an export answers 400 with them. `extra` are the page's own (`at`, `pos`, …).
 */
export function unknownParams(params: Params, extra: readonly string[] = []): string[] {
  const known = new Set<string>([...FILTER_KEYS, ...Object.keys(FILTER_ALIASES), ...extra]);
  const keys = params instanceof URLSearchParams ? [...new Set(params.keys())] : Object.keys(params);
  return keys
    .filter((k) => !known.has(k))
    .map((k) => `unknown parameter "${k.slice(0, 100)}" (the filter takes ${acceptedParams(extra)})`);
}

export type TraceFilter = { [K in FilterKey]?: z.output<(typeof FILTER_PARAMS)[K]> };

type Params = URLSearchParams | Record<string, string | string[] | undefined>;

function valuesUnder(params: Params, key: string): string[] {
  if (params instanceof URLSearchParams) return params.getAll(key);
  const v = params[key];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** A parameter's values under its own name and its aliases. */
function valuesOf(params: Params, key: FilterKey): string[] {
  const names = [key, ...Object.keys(FILTER_ALIASES).filter((a) => FILTER_ALIASES[a] === key)];
  return names.flatMap((n) => valuesUnder(params, n));
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

/**
 * A run page's filter, as it lives in the URL, or what is wrong with it (a request answered 400).
 * With `only`, a parameter that is neither the filter's nor one of `only.extra` is wrong too (the
 * exports and the command line); without, other parameters are the page's to read.
 */
export function checkTraceFilter(
  params: Params,
  only?: { extra: readonly string[] },
): { ok: true; filter: TraceFilter } | { ok: false; error: string } {
  const { filter, errors } = readFilter(params, true);
  if (only) errors.push(...unknownParams(params, only.extra));
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

/**
 * The filter's field: the one it names when the run has it, else every field (a default of one
 * field hid every other field's misfires).
 */
export function filterField(filter: TraceFilter, fieldNames: string[]): string {
  if (filter.field && (filter.field === ANY_FIELD || fieldNames.includes(filter.field))) return filter.field;
  return ANY_FIELD;
}

/** A notice for a field the run does not probe (the page then reads every field), or null. */
export function unknownFieldNotice(filter: TraceFilter, fieldNames: string[]): string | null {
  if (!filter.field || filterField(filter, fieldNames) === filter.field) return null;
  const known = fieldNames.length ? fieldNames.join(", ") : "none";
  return `this run has no field "${filter.field.slice(0, 100)}" (its fields: ${known}, or any): showing every field`;
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
