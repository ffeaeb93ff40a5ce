import type { Fact, WorldState } from "@/lib/gate/facts";
import { ANY_FIELD } from "@/lib/ingest/tags";
import { runHref } from "@/lib/runPath";
import {
  filterField,
  filterToParams,
  parseTraceFilter,
  type TraceFilter,
  unknownFieldNotice,
  unknownParams,
} from "@/lib/traceFilter";

// What the trace page works out from its URL and its trace, apart from the reads: the filter it
// was opened in, the links that keep that filter, and the facts its gate card shows. Pure, so the
// rules are tested without a server.

type SearchParams = Record<string, string | string[] | undefined>;

/** The trace page's own parameters beside the filter's. */
const TRACE_PAGE_PARAMS = ["pos"] as const;

/** The run page's filter the trace was opened in, as the trace page reads it. */
export interface TraceFilterView {
  /** The filter with the field its neighbours are read in, and no paging. */
  filter: TraceFilter;
  /** The field the filter reads (`*` for every field), or null when it reads none. */
  field: string | null;
  /** The filter as URL parameters ("" for none). */
  query: string;
  /** What the page does not read of its URL, said rather than silently dropped. */
  notices: (string | null)[];
  /** The field to highlight in the labels card: only a filter on a field's labels picks one. */
  focusField: string | null;
}

/** Filters that name a field's label, reason or agreement need a field; the run page always sends one. */
function navField(filter: TraceFilter, fields: string[]): string | null {
  // A field the run lacks reads every field, as the run page does (and says so).
  if (filter.field) return filterField(filter, fields);
  if (!(filter.label || filter.reason || filter.human || filter.recorded || filter.flag)) return null;
  // As on the run page: a filter that names no field reads every field.
  return fields.length ? ANY_FIELD : null;
}

/** The filter of the trace page's URL, for a trace whose probed fields are `fields`. */
export function traceFilterView(params: SearchParams, fields: string[]): TraceFilterView {
  const raw = parseTraceFilter(params);
  const field = navField(raw, fields);
  const filter: TraceFilter = { ...raw, field: field ?? undefined, after: undefined, before: undefined };
  return {
    filter,
    field,
    query: filterToParams(filter).toString(),
    notices: [...unknownParams(params, TRACE_PAGE_PARAMS), unknownFieldNotice(raw, fields)],
    focusField: raw.label || raw.reason || raw.human || raw.recorded ? field : null,
  };
}

/** A 1-based position carried in the URL (`pos`), when it is one. */
function position(v: string | string[] | undefined): number | null {
  const x = Array.isArray(v) ? v[0] : v;
  return x && /^[1-9][0-9]{0,15}$/.test(x) ? Number(x) : null;
}

export interface TraceNavLinks {
  /** The previous and next trace in the filter, or null at its ends. */
  prevHref: string | null;
  nextHref: string | null;
  /** The run page in the filter, scrolled to this trace's row (`at`, `pos`). */
  backHref: string;
  /** The run page in the filter. */
  runLink: string;
}

/**
 * The links that keep the filter: to the neighbours, back to the run at this trace's row, and to
 * the run. The position in the filter (`pos`, from the run page's link) is carried by j and k, so
 * u returns to this trace's page of the run; a trace outside the filter has none.
 */
export function traceNavLinks(o: {
  runName: string;
  traceId: number;
  query: string;
  neighbours: { prev: number | null; next: number | null };
  inFilter: boolean;
  pos: string | string[] | undefined;
}): TraceNavLinks {
  const pos = o.inFilter ? position(o.pos) : null;
  const hrefWith = (path: string, extra: Record<string, number | null>) => {
    const p = new URLSearchParams(o.query);
    for (const [k, v] of Object.entries(extra)) if (v !== null) p.set(k, String(v));
    return p.size ? `${path}${path.includes("?") ? "&" : "?"}${p}` : path;
  };
  const { prev, next } = o.neighbours;
  return {
    prevHref: prev !== null ? hrefWith(`/traces/${prev}`, { pos: pos && pos > 1 ? pos - 1 : null }) : null,
    nextHref: next !== null ? hrefWith(`/traces/${next}`, { pos: pos && pos + 1 }) : null,
    backHref: hrefWith(runHref(o.runName), { at: o.traceId, pos }),
    runLink: runHref(o.runName, o.query),
  };
}

export interface GateFacts {
  facts: Record<string, Fact>;
  /** Where a fact came from, in words. */
  origin: (key: string) => string;
}

/**
 * The facts the gate read: the probe's (its own, or the defaults its compiled form holds),
 * overridden key by key by the trace's own world_state, as the scorer's gate reads them.
 */
export function gateFacts(
  probeFacts: WorldState | undefined,
  traceFacts: WorldState | undefined,
  probeDeclaresFacts: boolean,
): GateFacts {
  return {
    facts: { ...(probeFacts ?? {}), ...(traceFacts ?? {}) },
    origin: (k) =>
      traceFacts && Object.hasOwn(traceFacts, k)
        ? "from the trace's world_state"
        : probeDeclaresFacts
          ? "from the probe"
          : "probe default",
  };
}
