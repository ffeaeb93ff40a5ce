import type { JsonBudget } from "../../lib/budget/jsonBudget";
import { readJsonSync } from "../../lib/budget/readJson";
import { tagSignature } from "../../lib/ingest/tagSignature";
import { ANY_FIELD } from "../../lib/ingest/tags";
import { filterTagSet, type TraceFilter } from "../../lib/traceFilter";
import type { Db } from "../client";
import { findTagId } from "./tags";

/** A row of a run's list, its JSON read to a row's budget from the start of each column (see loadRows). */
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
  /** A gate-log trace's recorded verdict (lib/ingest/gateLog.ts); absent on probe traces. */
  recordedGate?: TraceListRow["result"]["gate"];
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
export interface Scope {
  db: Db;
  runId: number;
  tags: { id: number; n: number }[];
  sig: number;
  match: string | null;
  /** Tags of which a match carries at least one (`human=reviewed`), with their kept counts. */
  anyOf: { id: number; n: number }[] | null;
  /** Tags a match carries none of (`human=unreviewed`), with their kept counts. */
  none: { id: number; n: number }[];
  /** Whether the anyOf / none tags are per field (a trace has at most one of them), not "any field". */
  perField: boolean;
}

type Cursor = { op: ">" | "<"; id: number };

export function resolve(db: Db, runId: number, filter: TraceFilter, field: string | null): Scope | null {
  const match = filter.q ? ftsQuery(filter.q) : null;
  if (filter.q && match === null) return null;
  const stmt = db.sqlite
    .prepare("SELECT coalesce(sum(n), 0) FROM run_counts WHERE run_id = ? AND tag_id = ?")
    .pluck();
  const known = (names: string[]) =>
    names.flatMap((name) => {
      const id = findTagId(db, name);
      return id === undefined ? [] : [{ id, n: stmt.get(runId, id) as number }];
    });
  const set = filterTagSet(filter, field);
  const tags = known(set.all);
  if (tags.length < set.all.length) return null;
  const anyOf = set.anyOf ? known(set.anyOf) : null;
  if (anyOf && anyOf.length === 0) return null;
  return {
    db,
    runId,
    tags: tags.sort((x, y) => x.n - y.n),
    sig: tagSignature(set.all),
    match,
    anyOf,
    none: known(set.none),
    perField: field !== ANY_FIELD,
  };
}

/** SQL conditions (and their arguments) for the anyOf / none tags, on the trace id expression `on`. */
function extraConditions(s: Scope, on: string): { cond: string[]; args: unknown[] } {
  const cond: string[] = [];
  const args: unknown[] = [];
  const has = (ids: number[]) => {
    args.push(s.runId, ...ids);
    return `EXISTS (SELECT 1 FROM trace_tags x WHERE x.run_id = ? AND x.tag_id IN (${ids.map(() => "?").join(", ")}) AND x.trace_id = ${on})`;
  };
  if (s.anyOf) cond.push(has(s.anyOf.map((t) => t.id)));
  if (s.none.length) cond.push(`NOT ${has(s.none.map((t) => t.id))}`);
  return { cond, args };
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
  if (!match && ids.length === 0 && s.anyOf && s.none.length === 0) {
    // Only "at least one of these tags": merge their ranges, each read no further than it must.
    const branches = s.anyOf.map((t) => {
      args.push(runId, t.id, ...(cursor ? [cursor.id] : []), limit);
      return `SELECT * FROM (SELECT trace_id AS id FROM trace_tags WHERE run_id = ? AND tag_id = ?${cursor ? ` AND trace_id ${cursor.op} ?` : ""} ORDER BY trace_id ${dir} LIMIT ?)`;
    });
    args.push(limit);
    return { sql: `${branches.join(" UNION ")} ORDER BY id ${dir} LIMIT ?`, args };
  }
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
    const extra = extraConditions(s, "s.rowid");
    cond.push(...extra.cond);
    args.push(...extra.args);
    if (cursor) {
      cond.push(`s.rowid ${cursor.op} ?`);
      args.push(cursor.id);
    }
    sql = `SELECT s.rowid AS id FROM trace_search s WHERE ${cond.join(" AND ")} ORDER BY s.rowid ${dir} LIMIT ?`;
  } else if (ids.length === 0) {
    const extra = extraConditions(s, "traces.id");
    args.push(runId, ...extra.args);
    if (cursor) args.push(cursor.id);
    const cond = ["run_id = ?", ...extra.cond, ...(cursor ? [`id ${cursor.op} ?`] : [])];
    sql = `SELECT id FROM traces WHERE ${cond.join(" AND ")} ORDER BY id ${dir} LIMIT ?`;
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
    const extra = extraConditions(s, "t0.trace_id");
    cond.push(...extra.cond);
    args.push(...extra.args);
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

export function matchingIds(s: Scope, cursor: Cursor | null, dir: "ASC" | "DESC", limit: number): number[] {
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
  const extra = extraConditions(s, "w.value");
  cond.push(...extra.cond);
  args.push(...extra.args, limit);
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
export function countMatching(s: Scope): MatchCount {
  const { db, runId, tags } = s;
  if (s.match) {
    const plan = planIds(s, null, "ASC", SEARCH_COUNT_CAP + 1);
    const n = db.sqlite
      .prepare(`SELECT count(*) FROM (${plan.sql})`)
      .pluck()
      .get(...plan.args) as number;
    return n > SEARCH_COUNT_CAP ? { n: SEARCH_COUNT_CAP, kind: "atLeast" } : { n, kind: "exact" };
  }
  const extra = s.anyOf !== null || s.none.length > 0;
  if (tags.length === 0) {
    const total = db.sqlite.prepare("SELECT trace_count FROM runs WHERE id = ?").pluck().get(runId) as number;
    if (!extra) return { n: total, kind: "exact" };
    if (s.perField) {
      // A trace carries at most one of a field's labels and of its agree / disagree tags, and a
      // human tag only on a field it probes: the kept counts add up.
      const sum = (ts: { n: number }[]) => ts.reduce((n, t) => n + t.n, 0);
      return { n: (s.anyOf ? sum(s.anyOf) : total) - sum(s.none), kind: "exact" };
    }
    const { cond, args } = extraConditions(s, "t.id");
    const hits = db.sqlite
      .prepare(
        `SELECT count(*) FROM (SELECT id FROM traces WHERE run_id = ? ORDER BY id LIMIT ?) t WHERE ${cond.join(" AND ")}`,
      )
      .pluck()
      .get(runId, COUNT_SAMPLE, ...args) as number;
    if (total <= COUNT_SAMPLE) return { n: hits, kind: "exact" };
    return { n: Math.round((hits * total) / COUNT_SAMPLE), kind: "estimate" };
  }
  if (tags.length === 1 && !extra) return { n: tags[0].n, kind: "exact" };
  const [rarest, ...rest] = tags;
  const cond = rest.map(
    () =>
      "EXISTS (SELECT 1 FROM trace_tags x WHERE x.run_id = ? AND x.tag_id = ? AND x.trace_id = s.trace_id)",
  );
  const args: unknown[] = [runId, rarest.id, COUNT_SAMPLE, s.sig, s.sig];
  for (const t of rest) args.push(runId, t.id);
  const more = extraConditions(s, "s.trace_id");
  cond.push(...more.cond);
  args.push(...more.args);
  const hits = db.sqlite
    .prepare(
      `SELECT count(*) FROM (SELECT trace_id, sig FROM trace_tags WHERE run_id = ? AND tag_id = ? ORDER BY trace_id LIMIT ?) s
        WHERE ${["(s.sig & ?) = ?", ...cond].join(" AND ")}`,
    )
    .pluck()
    .get(...args) as number;
  if (rarest.n <= COUNT_SAMPLE) return { n: hits, kind: "exact" };
  return { n: Math.round((hits * rarest.n) / COUNT_SAMPLE), kind: "estimate" };
}

/**
 * What a row reads of each stored JSON column: its first characters only (a record can hold
 * megabytes), to a row's budget, the filtered field kept wherever it is in that prefix. A row
 * costs the same for a 7 MB record as for a small one; what a row leaves out is marked (`cutOf`).
 */
const ROW_PREFIX = { labels: 8192, result: 16_384, response: 4096, human: 4096, recorded: 4096 } as const;
const ROW_READ: JsonBudget = { entries: 24, nodes: 300, depth: 6 };
const PREVIEW_READ: JsonBudget = { entries: 8, nodes: 60, depth: 4 };

const ROW_SQL = `SELECT id, ext_id AS extId, line, source, probe_id AS probeId, substr(labels, 1, ${ROW_PREFIX.labels}) AS labels,
  substr(result, 1, ${ROW_PREFIX.result}) AS result, latency_ms AS latencyMs, started_at AS startedAt, gate,
  substr(response, 1, ${ROW_PREFIX.response}) AS response, substr(human, 1, ${ROW_PREFIX.human}) AS human,
  substr(recorded, 1, ${ROW_PREFIX.recorded}) AS recorded FROM traces WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`;

/** A column's prefix read to `budget`; a prefix as long as its limit may have been cut there. */
function readPrefix(text: string, limit: number, budget: JsonBudget): unknown {
  return readJsonSync(text, budget, { prefix: text.length >= limit }).value;
}

export function loadRows(db: Db, ids: number[], field: string | null): TraceListRow[] {
  if (ids.length === 0) return [];
  const raw = db.sqlite.prepare(ROW_SQL).all(JSON.stringify(ids)) as Record<string, string | number | null>[];
  const budget: JsonBudget = field ? { ...ROW_READ, keep: new Set([field]), keepEntries: 4 } : ROW_READ;
  const col = (r: (typeof raw)[number], k: keyof typeof ROW_PREFIX, b = budget) =>
    r[k] === null ? null : readPrefix(r[k] as string, ROW_PREFIX[k], b);
  return raw.map((r) => {
    const result = (col(r, "result") ?? {}) as Partial<TraceListRow["result"]> & {
      recorded_gate?: TraceListRow["result"]["gate"];
    };
    const response = (col(r, "response", PREVIEW_READ) ?? {}) as Partial<TraceListRow["response"]>;
    return {
      id: r.id as number,
      extId: r.extId as string | null,
      line: r.line as number,
      source: r.source as string,
      probeId: r.probeId as string,
      labels: (col(r, "labels") ?? {}) as Record<string, string>,
      // A prefix can end before a part: every part is there, if only empty.
      result: {
        fields: result.fields ?? {},
        flags: result.flags ?? [],
        gate: result.gate ?? { verdict: r.gate as string, unknown: [], conflict: [], next: null },
      },
      ...(result.recorded_gate ? { recordedGate: result.recorded_gate } : {}),
      latencyMs: r.latencyMs as number | null,
      startedAt: r.startedAt as string | null,
      response: {
        text: response.text ?? null,
        tool_calls: response.tool_calls ?? [],
        fenced: response.fenced ?? false,
      },
      human: col(r, "human") as Record<string, string> | null,
      recorded: col(r, "recorded") as Record<string, string> | null,
    };
  });
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
  return { rows: loadRows(db, ids, field), nextAfter, prevBefore, count };
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
 * Every trace id of a run under a filter, in ingest order: the whole filter, read in keyset
 * batches so no statement stays open while the caller works (the connection is shared).
 */
export function* matchingTraceIds(
  db: Db,
  runId: number,
  filter: TraceFilter,
  field: string | null,
  batch = 500,
): Generator<number[]> {
  const s = resolve(db, runId, { ...filter, after: undefined, before: undefined }, field);
  if (s === null) return;
  let cursor: Cursor | null = null;
  for (;;) {
    const ids = matchingIds(s, cursor, "ASC", batch);
    if (ids.length === 0) return;
    yield ids;
    if (ids.length < batch) return;
    cursor = { op: ">", id: ids[ids.length - 1] };
  }
}

/**
 * Up to `limit` ids of the run's traces matching a filter, after `afterId`, ascending (a bulk
 * relabel and a bulk add to a fixture set walk their filter with this, one read at a time).
 */
export function matchingIdsAfter(
  db: Db,
  runId: number,
  filter: TraceFilter,
  field: string | null,
  afterId: number,
  limit: number,
): number[] {
  const s = resolve(db, runId, { ...filter, after: undefined, before: undefined }, field);
  if (s === null) return [];
  return matchingIds(s, { op: ">", id: afterId }, "ASC", limit);
}
