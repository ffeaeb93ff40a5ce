/**
 * Where a trace sits in a run's filtered list: its position, whether it matches, and the page
 * that holds it, so a reviewer coming back from a trace (`u`) lands on its row, on its page.
 * Work stays bounded: positions are counted only up to POSITION_CAP matches; deeper ones come
 * from the position the pages carry in their links.
 */
import type { TraceFilter } from "../../lib/traceFilter";
import type { Db } from "../client";
import {
  countMatching,
  loadRows,
  matchingIds,
  PAGE_SIZE,
  resolve,
  type Scope,
  type TracePage,
} from "./traceList";

/** Positions are counted up to this many matches before a trace (40 pages: a few milliseconds). */
export const POSITION_CAP = 2_000;

/**
 * How many traces matching the filter come before `traceId`; null past POSITION_CAP, when nothing
 * matches, or for a search (FTS5 reads a word's whole list to go backwards from a cursor: tens of
 * milliseconds deep into a big run), whose pages carry their position in their links instead.
 */
export function countBefore(
  db: Db,
  runId: number,
  filter: TraceFilter,
  field: string | null,
  traceId: number,
): number | null {
  const s = resolve(db, runId, filter, field);
  if (s === null || s.match) return null;
  return countIn(s, traceId);
}

function countIn(s: Scope, traceId: number): number | null {
  const n = matchingIds(s, { op: "<", id: traceId }, "DESC", POSITION_CAP + 1).length;
  return n > POSITION_CAP ? null : n;
}

/** Whether the trace matches the filter (it may not: opened directly, or relabelled since). */
export function traceInFilter(
  db: Db,
  runId: number,
  traceId: number,
  filter: TraceFilter,
  field: string | null,
): boolean {
  const s = resolve(db, runId, filter, field);
  if (s === null) return false;
  return matchingIds(s, { op: ">", id: traceId - 1 }, "ASC", 1)[0] === traceId;
}

export interface PageHolding extends TracePage {
  /** Matches before the page's first row (its first row is number start + 1); null when unknown. */
  start: number | null;
  /** The trace matches the filter (so its row is on the page). */
  found: boolean;
}

/**
 * The page of the filtered list that holds `traceId` (or where it would sit, when it does not
 * match), aligned to the pages the run page turns through: page k holds positions 50k+1 to
 * 50k+50. `position` is the trace's 1-based position when the caller knows it (the links carry
 * it); otherwise it is counted, up to POSITION_CAP (not for a search: see countBefore), and
 * when it cannot be, the page starts at the trace (`start` null). A position past the trace's
 * real one is corrected by what is found before it.
 */
export function pageHolding(
  db: Db,
  runId: number,
  filter: TraceFilter,
  field: string | null,
  traceId: number,
  position: number | null,
  pageSize = PAGE_SIZE,
): PageHolding {
  const s = resolve(db, runId, filter, field);
  if (s === null)
    return {
      rows: [],
      nextAfter: null,
      prevBefore: null,
      count: { n: 0, kind: "exact" },
      start: 0,
      found: false,
    };
  const found = matchingIds(s, { op: ">", id: traceId - 1 }, "ASC", 1)[0] === traceId;
  let rank = position !== null && position >= 1 ? position - 1 : null;
  if (rank === null && !s.match) rank = countIn(s, traceId);
  let before: number[] = [];
  let start: number | null = null;
  if (rank !== null) {
    const want = rank % pageSize;
    before = want > 0 ? matchingIds(s, { op: "<", id: traceId }, "DESC", want).reverse() : [];
    // Fewer before it than its claimed position needs: the position was too deep, and these are
    // all the matches before it, so it is on the first page.
    start = before.length < want ? 0 : rank - want;
  }
  const rest = matchingIds(s, { op: ">", id: traceId - 1 }, "ASC", pageSize - before.length + 1);
  const more = rest.length > pageSize - before.length;
  const ids = [...before, ...rest.slice(0, pageSize - before.length)];
  const hasPrev =
    ids.length > 0 &&
    (start !== null ? start > 0 : matchingIds(s, { op: "<", id: ids[0] }, "DESC", 1).length > 0);
  return {
    rows: loadRows(db, ids, field),
    nextAfter: more && ids.length ? ids[ids.length - 1] : null,
    prevBefore: hasPrev ? ids[0] : null,
    count: countMatching(s),
    start,
    found,
  };
}
