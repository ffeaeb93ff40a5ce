import { tagSignature } from "../../lib/ingest/tagSignature";
import { tag } from "../../lib/ingest/tags";
import { LABELS } from "../../lib/probe/schema";
import { filterExclusion, filterTags, type TraceFilter } from "../../lib/traceFilter";
import type { Db } from "../client";
import { findTagId } from "./tags";

export interface TraceListRow {
  id: number;
  extId: string | null;
  line: number;
  source: string;
  probeId: string;
  labels: Record<string, string>;
  /** The score in `assumeprobe score` shape (fields with reasons and flags, trace flags, gate). */
  result: {
    fields: Record<string, { label: string; reasons?: string[]; flags: string[] }>;
    flags: string[];
    gate: { verdict: string; unknown: string[]; conflict: string[]; next: string | null };
  };
  latencyMs: number | null;
  startedAt: string | null;
  response: { text: string | null; tool_calls: unknown[]; fenced: boolean };
  human: Record<string, string> | null;
  recorded: Record<string, string> | null;
}

export interface TracePage {
  rows: TraceListRow[];
  /** Id to pass as `after` for the next page, when there is one. */
  nextAfter: number | null;
  /** Id to pass as `before` for the previous page, when there is one. */
  prevBefore: number | null;
  count: MatchCount;
}

/**
 * How many traces match: `exact`; `atLeast` (a search counted up to SEARCH_COUNT_CAP); or
 * `estimate` (two or more filter tags: the share of matches among the first COUNT_SAMPLE traces
 * carrying the rarest tag, times that tag's kept count).
 */
export interface MatchCount {
  n: number;
  kind: "exact" | "atLeast" | "estimate";
}

export const PAGE_SIZE = 50;
export const SEARCH_COUNT_CAP = 1_000;
export const COUNT_SAMPLE = 2_000;

/**
 * A user's words as an FTS5 query: every word must appear, as a whole word, or as a prefix when
 * the user ends it with `*` (`tok*`). Never a syntax error. Whole words are the default because a
 * prefix query merges every term it covers before the first row comes back: at a million traces,
 * tens of milliseconds instead of one.
 */
export function ftsQuery(q: string): string | null {
  const words = [...q.matchAll(/([\p{L}\p{N}_]+)(\*?)/gu)];
  if (words.length === 0) return null;
  return words.map((m) => `"${m[1]}"${m[2]}`).join(" ");
}

/**
 * A filter resolved once per request: its tag ids, rarest first, with their kept counts in the
 * run, the signature bits a matching trace has (`sig`, see lib/ingest/tagSignature.ts), and the
 * search as an FTS5 query. Null when nothing can match (a tag that never occurs, a search with no
 * word in it).
 */
interface Scope {
  db: Db;
  runId: number;
  tags: { id: number; n: number }[];
  sig: number;
  match: string | null;
  /** A tag a match must not carry (`human=unreviewed`), when that tag exists. */
  exclude: { id: number; n: number } | null;
  /** A field a match must probe (an unreviewed field, when no other tag implies it is probed). */
  mustProbe: string | null;
}

/** Conditions on a candidate trace id (`idSql`) beyond its tags: the exclusion and the probed field. */
function extraConditions(s: Scope, idSql: string, args: unknown[]): string[] {
  const cond: string[] = [];
  if (s.exclude) {
    cond.push(
      `NOT EXISTS (SELECT 1 FROM trace_tags xe WHERE xe.run_id = ? AND xe.tag_id = ? AND xe.trace_id = ${idSql})`,
    );
    args.push(s.runId, s.exclude.id);
  }
  if (s.mustProbe !== null) {
    cond.push(
      `EXISTS (SELECT 1 FROM traces tp, json_each(tp.labels) jl WHERE tp.id = ${idSql} AND jl.key = ?)`,
    );
    args.push(s.mustProbe);
  }
  return cond;
}

type Cursor = { op: ">" | "<"; id: number };

function resolve(db: Db, runId: number, filter: TraceFilter, field: string | null): Scope | null {
  const match = filter.q ? ftsQuery(filter.q) : null;
  if (filter.q && match === null) return null;
  const stmt = db.sqlite
    .prepare("SELECT coalesce(sum(n), 0) FROM run_counts WHERE run_id = ? AND tag_id = ?")
    .pluck();
  const tags: { id: number; n: number }[] = [];
  const names = filterTags(filter, field);
  for (const name of names) {
    const id = findTagId(db, name);
    if (id === undefined) return null;
    tags.push({ id, n: stmt.get(runId, id) as number });
  }
  const ex = filterExclusion(filter, field);
  let exclude: Scope["exclude"] = null;
  if (ex) {
    const id = findTagId(db, ex.tag);
    if (id !== undefined) exclude = { id, n: stmt.get(runId, id) as number };
  }
  return {
    db,
    runId,
    tags: tags.sort((x, y) => x.n - y.n),
    sig: tagSignature(names),
    match,
    exclude,
    mustProbe: ex?.mustProbe ?? null,
  };
}

/** Builds "ids of this run matching the filter, keyset-ordered". `dir` asc pages forward, desc backward. */
function planIds(
  s: Scope,
  cursor: Cursor | null,
  dir: "ASC" | "DESC",
  limit: number,
): { sql: string; args: unknown[] } {
  const { runId, match } = s;
  // Drive the scan from the rarest tag; CROSS JOIN keeps SQLite from reordering it.
  const ids = s.tags.map((t) => t.id);
  const args: unknown[] = [];
  let sql: string;
  if (match) {
    const cond = [
      `s.trace_search MATCH ?`,
      `EXISTS (SELECT 1 FROM traces t WHERE t.id = s.rowid AND t.run_id = ?)`,
    ];
    args.push(match, runId);
    for (const id of ids) {
      cond.push(
        "EXISTS (SELECT 1 FROM trace_tags x WHERE x.run_id = ? AND x.tag_id = ? AND x.trace_id = s.rowid)",
      );
      args.push(runId, id);
    }
    cond.push(...extraConditions(s, "s.rowid", args));
    if (cursor) {
      cond.push(`s.rowid ${cursor.op} ?`);
      args.push(cursor.id);
    }
    sql = `SELECT s.rowid AS id FROM trace_search s WHERE ${cond.join(" AND ")} ORDER BY s.rowid ${dir} LIMIT ?`;
  } else if (ids.length === 0) {
    args.push(runId);
    if (cursor) args.push(cursor.id);
    const extra = extraConditions(s, "tr.id", args)
      .map((c) => ` AND ${c}`)
      .join("");
    sql = `SELECT tr.id AS id FROM traces tr WHERE tr.run_id = ?${cursor ? ` AND tr.id ${cursor.op} ?` : ""}${extra} ORDER BY tr.id ${dir} LIMIT ?`;
  } else {
    const from = ["trace_tags t0"];
    const cond = ["t0.run_id = ?", "t0.tag_id = ?"];
    args.push(runId, ids[0]);
    if (ids.length > 1) {
      // Skip, within the rarest range, traces that lack a bit of the other tags.
      cond.push("(t0.sig & ?) = ?");
      args.push(s.sig, s.sig);
    }
    for (let i = 1; i < ids.length; i++) {
      from.push(`CROSS JOIN trace_tags t${i}`);
      cond.push(`t${i}.run_id = t0.run_id`, `t${i}.tag_id = ?`, `t${i}.trace_id = t0.trace_id`);
      args.push(ids[i]);
    }
    cond.push(...extraConditions(s, "t0.trace_id", args));
    if (cursor) {
      cond.push(`t0.trace_id ${cursor.op} ?`);
      args.push(cursor.id);
    }
    sql = `SELECT t0.trace_id AS id FROM ${from.join(" ")} WHERE ${cond.join(" AND ")} ORDER BY t0.trace_id ${dir} LIMIT ?`;
  }
  args.push(limit);
  return { sql, args };
}

function runPlan(s: Scope, cursor: Cursor | null, dir: "ASC" | "DESC", limit: number): number[] {
  const plan = planIds(s, cursor, dir, limit);
  return s.db.sqlite
    .prepare(plan.sql)
    .pluck()
    .all(...plan.args) as number[];
}

function matchingIds(s: Scope, cursor: Cursor | null, dir: "ASC" | "DESC", limit: number): number[] {
  if (s.match && cursor) return searchFromCursor(s, s.match, cursor, dir, limit);
  return runPlan(s, cursor, dir, limit);
}

/**
 * A search from a cursor (a later page, a trace's neighbours). FTS5 finds `rowid > X` by reading
 * the term's list from its start: deep into a run of a million traces a common word costs 20-50
 * ms, while one `rowid = X` lookup costs a tenth of a millisecond. So the 32 traces right after
 * the cursor are checked one by one first (enough for a trace's neighbour, j/k on the trace page,
 * when the word is common), and only what they do not supply comes from the range query, from the
 * end of that window.
 */
function searchFromCursor(
  s: Scope,
  match: string,
  cursor: Cursor,
  dir: "ASC" | "DESC",
  limit: number,
): number[] {
  const { db, runId } = s;
  const size = 32;
  const window = db.sqlite
    .prepare(`SELECT id FROM traces WHERE run_id = ? AND id ${cursor.op} ? ORDER BY id ${dir} LIMIT ?`)
    .pluck()
    .all(runId, cursor.id, size) as number[];
  if (window.length === 0) return [];
  const cond = ["EXISTS (SELECT 1 FROM trace_search s WHERE s.trace_search MATCH ? AND s.rowid = w.value)"];
  const args: unknown[] = [JSON.stringify(window), match];
  for (const t of s.tags) {
    cond.push(
      "EXISTS (SELECT 1 FROM trace_tags x WHERE x.run_id = ? AND x.tag_id = ? AND x.trace_id = w.value)",
    );
    args.push(runId, t.id);
  }
  cond.push(...extraConditions(s, "w.value", args));
  args.push(limit);
  const hits = db.sqlite
    .prepare(`SELECT w.value FROM json_each(?) w WHERE ${cond.join(" AND ")} ORDER BY w.key LIMIT ?`)
    .pluck()
    .all(...args) as number[];
  if (hits.length >= limit || window.length < size) return hits;
  const rest = { op: cursor.op, id: window[window.length - 1] };
  return hits.concat(runPlan(s, rest, dir, limit - hits.length));
}

/**
 * How many traces match: the kept count when one tag (or none) decides it; a search counts up to
 * SEARCH_COUNT_CAP; two or more tags are estimated from a sample of the rarest one (exact when
 * that tag is on no more than COUNT_SAMPLE traces). The work is bounded whatever the filter.
 */
function countMatching(s: Scope): MatchCount {
  const { db, runId, tags } = s;
  if (s.match) {
    const plan = planIds(s, null, "ASC", SEARCH_COUNT_CAP + 1);
    const n = db.sqlite
      .prepare(`SELECT count(*) FROM (${plan.sql})`)
      .pluck()
      .get(...plan.args) as number;
    return n > SEARCH_COUNT_CAP ? { n: SEARCH_COUNT_CAP, kind: "atLeast" } : { n, kind: "exact" };
  }
  const filtered = s.exclude !== null || s.mustProbe !== null;
  if (tags.length === 0 && !filtered) {
    const n = db.sqlite.prepare("SELECT trace_count FROM runs WHERE id = ?").pluck().get(runId) as number;
    return { n, kind: "exact" };
  }
  if (tags.length === 0) return { n: unreviewedCount(s), kind: "exact" };
  if (tags.length === 1 && !filtered) return { n: tags[0].n, kind: "exact" };
  const [rarest, ...rest] = tags;
  const cond = rest.map(
    () =>
      "EXISTS (SELECT 1 FROM trace_tags x WHERE x.run_id = ? AND x.tag_id = ? AND x.trace_id = s.trace_id)",
  );
  const args: unknown[] = [runId, rarest.id, COUNT_SAMPLE, s.sig, s.sig];
  for (const t of rest) args.push(runId, t.id);
  cond.push(...extraConditions(s, "s.trace_id", args));
  const hits = db.sqlite
    .prepare(
      `SELECT count(*) FROM (SELECT trace_id, sig FROM trace_tags WHERE run_id = ? AND tag_id = ? ORDER BY trace_id LIMIT ?) s
        WHERE (s.sig & ?) = ? AND ${cond.join(" AND ")}`,
    )
    .pluck()
    .get(...args) as number;
  if (rarest.n <= COUNT_SAMPLE) return { n: hits, kind: "exact" };
  return { n: Math.round((hits * rarest.n) / COUNT_SAMPLE), kind: "estimate" };
}

/**
 * Traces with no current review of the field (of any field, for ANY_FIELD), from the kept counts:
 * the traces probing it (one label tag each) less the reviewed ones.
 */
function unreviewedCount(s: Scope): number {
  const { db, runId } = s;
  const reviewed = s.exclude?.n ?? 0;
  if (s.mustProbe === null) {
    const n = db.sqlite.prepare("SELECT trace_count FROM runs WHERE id = ?").pluck().get(runId) as number;
    return n - reviewed;
  }
  let probing = 0;
  const stmt = db.sqlite
    .prepare("SELECT coalesce(sum(n), 0) FROM run_counts WHERE run_id = ? AND tag_id = ?")
    .pluck();
  for (const l of LABELS) {
    const id = findTagId(db, tag.label(s.mustProbe, l));
    if (id !== undefined) probing += stmt.get(runId, id) as number;
  }
  return probing - reviewed;
}

const ROW_SQL = `SELECT id, ext_id AS extId, line, source, probe_id AS probeId, labels, result, latency_ms AS latencyMs,
  started_at AS startedAt, response, human, recorded FROM traces WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`;

function loadRows(db: Db, ids: number[]): TraceListRow[] {
  if (ids.length === 0) return [];
  const raw = db.sqlite.prepare(ROW_SQL).all(JSON.stringify(ids)) as Record<string, unknown>[];
  return raw.map((r) => ({
    id: r.id as number,
    extId: r.extId as string | null,
    line: r.line as number,
    source: r.source as string,
    probeId: r.probeId as string,
    labels: JSON.parse(r.labels as string),
    result: JSON.parse(r.result as string),
    latencyMs: r.latencyMs as number | null,
    startedAt: r.startedAt as string | null,
    response: JSON.parse(r.response as string),
    human: r.human ? JSON.parse(r.human as string) : null,
    recorded: r.recorded ? JSON.parse(r.recorded as string) : null,
  }));
}

/** One keyset page of a run's traces under a filter, in ingest order. */
export function listTraces(
  db: Db,
  runId: number,
  filter: TraceFilter,
  field: string | null,
  pageSize = PAGE_SIZE,
): TracePage {
  const s = resolve(db, runId, filter, field);
  if (s === null) return { rows: [], nextAfter: null, prevBefore: null, count: { n: 0, kind: "exact" } };
  let ids: number[];
  let more: boolean;
  let nextAfter: number | null = null;
  let prevBefore: number | null = null;
  if (filter.before) {
    ids = matchingIds(s, { op: "<", id: filter.before }, "DESC", pageSize + 1);
    more = ids.length > pageSize;
    ids = ids.slice(0, pageSize).reverse();
    if (more && ids.length) prevBefore = ids[0];
    if (ids.length) nextAfter = ids[ids.length - 1];
  } else {
    const cursor = filter.after ? { op: ">" as const, id: filter.after } : null;
    ids = matchingIds(s, cursor, "ASC", pageSize + 1);
    more = ids.length > pageSize;
    ids = ids.slice(0, pageSize);
    if (more) nextAfter = ids[ids.length - 1];
    if (filter.after && ids.length) prevBefore = ids[0];
  }
  // Paging backwards always has a next page; make sure it really has rows after.
  if (
    filter.before &&
    nextAfter !== null &&
    matchingIds(s, { op: ">", id: nextAfter }, "ASC", 1).length === 0
  ) {
    nextAfter = null;
  }
  // A first page with no page after it holds every match: that is the exact count, for free.
  const whole = !filter.before && !filter.after && nextAfter === null;
  const count: MatchCount = whole ? { n: ids.length, kind: "exact" } : countMatching(s);
  // An estimate is never below what is on screen.
  if (count.kind === "estimate" && !filter.before && !filter.after)
    count.n = Math.max(count.n, ids.length + 1);
  return { rows: loadRows(db, ids), nextAfter, prevBefore, count };
}

/** The traces just before and after one trace under a filter (for j/k on the trace page). */
export function neighbours(
  db: Db,
  runId: number,
  traceId: number,
  filter: TraceFilter,
  field: string | null,
): { prev: number | null; next: number | null } {
  const s = resolve(db, runId, filter, field);
  if (s === null) return { prev: null, next: null };
  const prev = matchingIds(s, { op: "<", id: traceId }, "DESC", 1)[0] ?? null;
  const next = matchingIds(s, { op: ">", id: traceId }, "ASC", 1)[0] ?? null;
  return { prev, next };
}

/**
 * Up to `limit` ids of the run's traces matching a filter, after `afterId`, ascending (a bulk
 * relabel walks its filter with this).
 */
export function matchingIdsAfter(
  db: Db,
  runId: number,
  filter: TraceFilter,
  field: string | null,
  afterId: number,
  limit: number,
): number[] {
  const s = resolve(db, runId, filter, field);
  if (s === null) return [];
  return matchingIds(s, { op: ">", id: afterId }, "ASC", limit);
}
