import { filterTags, type TraceFilter } from "../../lib/traceFilter";
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
  count: { n: number; capped: boolean };
}

export const PAGE_SIZE = 50;
export const COUNT_CAP = 10_000;

/** A user's words as an FTS5 query: every word must appear (the last one as a prefix); no syntax errors. */
export function ftsQuery(q: string): string | null {
  const words = q.match(/[\p{L}\p{N}_]+/gu);
  if (!words || words.length === 0) return null;
  return words.map((w, i) => `"${w}"${i === words.length - 1 ? "*" : ""}`).join(" ");
}

interface Plan {
  sql: string;
  args: unknown[];
  empty: boolean;
}

/** Builds "ids of this run matching the filter, keyset-ordered". `dir` asc pages forward, desc backward. */
function planIds(
  db: Db,
  runId: number,
  filter: TraceFilter,
  field: string | null,
  cursor: { op: ">" | "<"; id: number } | null,
  dir: "ASC" | "DESC",
  limit: number,
): Plan {
  const names = filterTags(filter, field);
  const ids: number[] = [];
  for (const n of names) {
    const id = findTagId(db, n);
    if (id === undefined) return { sql: "", args: [], empty: true };
    ids.push(id);
  }
  // Drive the scan from the rarest tag; CROSS JOIN keeps SQLite from reordering it.
  if (ids.length > 1) {
    const counts = new Map<number, number>();
    const stmt = db.sqlite
      .prepare("SELECT coalesce(sum(n), 0) FROM run_counts WHERE run_id = ? AND tag_id = ?")
      .pluck();
    for (const id of ids) counts.set(id, stmt.get(runId, id) as number);
    ids.sort((a, b) => (counts.get(a) ?? 0) - (counts.get(b) ?? 0));
  }
  const match = filter.q ? ftsQuery(filter.q) : null;
  if (filter.q && match === null) return { sql: "", args: [], empty: true };
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
    if (cursor) {
      cond.push(`s.rowid ${cursor.op} ?`);
      args.push(cursor.id);
    }
    sql = `SELECT s.rowid AS id FROM trace_search s WHERE ${cond.join(" AND ")} ORDER BY s.rowid ${dir} LIMIT ?`;
  } else if (ids.length === 0) {
    args.push(runId);
    if (cursor) args.push(cursor.id);
    sql = `SELECT id FROM traces WHERE run_id = ?${cursor ? ` AND id ${cursor.op} ?` : ""} ORDER BY id ${dir} LIMIT ?`;
  } else {
    const from = ["trace_tags t0"];
    const cond = ["t0.run_id = ?", "t0.tag_id = ?"];
    args.push(runId, ids[0]);
    for (let i = 1; i < ids.length; i++) {
      from.push(`CROSS JOIN trace_tags t${i}`);
      cond.push(`t${i}.run_id = t0.run_id`, `t${i}.tag_id = ?`, `t${i}.trace_id = t0.trace_id`);
      args.push(ids[i]);
    }
    if (cursor) {
      cond.push(`t0.trace_id ${cursor.op} ?`);
      args.push(cursor.id);
    }
    sql = `SELECT t0.trace_id AS id FROM ${from.join(" ")} WHERE ${cond.join(" AND ")} ORDER BY t0.trace_id ${dir} LIMIT ?`;
  }
  args.push(limit);
  return { sql, args, empty: false };
}

function matchingIds(
  db: Db,
  runId: number,
  filter: TraceFilter,
  field: string | null,
  cursor: { op: ">" | "<"; id: number } | null,
  dir: "ASC" | "DESC",
  limit: number,
): number[] {
  const plan = planIds(db, runId, filter, field, cursor, dir, limit);
  if (plan.empty) return [];
  return db.sqlite
    .prepare(plan.sql)
    .pluck()
    .all(...plan.args) as number[];
}

/** How many traces match: kept counts when one tag (or none) decides it, else a capped count. */
export function countMatching(
  db: Db,
  runId: number,
  filter: TraceFilter,
  field: string | null,
): { n: number; capped: boolean } {
  const names = filterTags(filter, field);
  if (!filter.q && names.length === 0) {
    return {
      n: db.sqlite.prepare("SELECT trace_count FROM runs WHERE id = ?").pluck().get(runId) as number,
      capped: false,
    };
  }
  if (!filter.q && names.length === 1) {
    const id = findTagId(db, names[0]);
    if (id === undefined) return { n: 0, capped: false };
    const n = db.sqlite
      .prepare("SELECT coalesce(sum(n), 0) FROM run_counts WHERE run_id = ? AND tag_id = ?")
      .pluck()
      .get(runId, id) as number;
    return { n, capped: false };
  }
  const plan = planIds(db, runId, filter, field, null, "ASC", COUNT_CAP + 1);
  if (plan.empty) return { n: 0, capped: false };
  const n = db.sqlite
    .prepare(`SELECT count(*) FROM (${plan.sql})`)
    .pluck()
    .get(...plan.args) as number;
  return n > COUNT_CAP ? { n: COUNT_CAP, capped: true } : { n, capped: false };
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
  let ids: number[];
  let more: boolean;
  let nextAfter: number | null = null;
  let prevBefore: number | null = null;
  if (filter.before) {
    ids = matchingIds(db, runId, filter, field, { op: "<", id: filter.before }, "DESC", pageSize + 1);
    more = ids.length > pageSize;
    ids = ids.slice(0, pageSize).reverse();
    if (more && ids.length) prevBefore = ids[0];
    if (ids.length) nextAfter = ids[ids.length - 1];
  } else {
    const cursor = filter.after ? { op: ">" as const, id: filter.after } : null;
    ids = matchingIds(db, runId, filter, field, cursor, "ASC", pageSize + 1);
    more = ids.length > pageSize;
    ids = ids.slice(0, pageSize);
    if (more) nextAfter = ids[ids.length - 1];
    if (filter.after && ids.length) prevBefore = ids[0];
  }
  // Paging backwards always has a next page; make sure it really has rows after.
  if (
    filter.before &&
    nextAfter !== null &&
    matchingIds(db, runId, filter, field, { op: ">", id: nextAfter }, "ASC", 1).length === 0
  ) {
    nextAfter = null;
  }
  return { rows: loadRows(db, ids), nextAfter, prevBefore, count: countMatching(db, runId, filter, field) };
}

/** The traces just before and after one trace under a filter (for j/k on the trace page). */
export function neighbours(
  db: Db,
  runId: number,
  traceId: number,
  filter: TraceFilter,
  field: string | null,
): { prev: number | null; next: number | null } {
  const f = { ...filter, after: undefined, before: undefined };
  const prev = matchingIds(db, runId, f, field, { op: "<", id: traceId }, "DESC", 1)[0] ?? null;
  const next = matchingIds(db, runId, f, field, { op: ">", id: traceId }, "ASC", 1)[0] ?? null;
  return { prev, next };
}
