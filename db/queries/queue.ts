/**
 * The review queue (DESIGN.md, "Review queue"), read from tags the ingest's tag step and the
 * review write path keep up to date (lib/ingest/tags.ts, `queueTags`): a field waiting under a
 * rule carries `q:field=slot`, its trace `q:*=slot` and `qp:probe=slot`; a reviewed one carries
 * `qd:field=corrects|confirms`. So the next item is the first row of one index range per slot
 * (`trace_tags` by run, tag, trace id), and progress is a sum of kept counts (`run_counts`):
 * neither ever scans traces.
 *
 * Order: slot by slot (the rules in DESIGN.md's order, a DRIFT that asks in two: see QUEUE_SLOTS);
 * within a slot, newest run first, then ingest order.
 */
import type Database from "better-sqlite3";
import { ANY_FIELD, parseTag, tag } from "../../lib/ingest/tags";
import {
  isQueueSlot,
  QUEUE_SLOTS,
  type QueueRule,
  type QueueSlot,
  SLOT_RANK,
  slotRule,
} from "../../lib/review/queueRules";
import type { Db } from "../client";
import { findTagId } from "./tags";

/** What the reviewer chose to review: a run, a probe, a model, or any mix (none: everything). */
export interface QueueScope {
  run?: string;
  probe?: string;
  model?: string;
}

/** A scope resolved to run ids; `runIds` null means every run. Unknown names resolve to nothing. */
export interface ResolvedScope {
  runIds: number[] | null;
  probe: string | null;
}

/** Where the queue stands: skipping moves past an item without reviewing it. */
export interface QueuePosition {
  slot: QueueSlot;
  runId: number;
  traceId: number;
}

export interface QueueItem {
  traceId: number;
  runId: number;
  slot: QueueSlot;
  /** The rule the slot serves: what put the item here. */
  rule: QueueRule;
}

export interface QueueProgress {
  /** Fields still waiting, per rule (rules with none are absent). */
  waiting: Partial<Record<QueueRule, number>>;
  waitingTotal: number;
  /** Fields a rule queued that have a current review: those correcting ours, those confirming it. */
  corrects: number;
  confirms: number;
  reviewed: number;
  /** reviewed + waiting. */
  total: number;
}

export function resolveScope(db: Db, scope: QueueScope): ResolvedScope {
  const where: string[] = [];
  const args: string[] = [];
  if (scope.run) {
    where.push("name = ?");
    args.push(scope.run);
  }
  if (scope.model) {
    where.push("model = ?");
    args.push(scope.model);
  }
  const runIds = where.length
    ? (db.sqlite
        .prepare(`SELECT id FROM runs WHERE ${where.join(" AND ")} ORDER BY id DESC`)
        .pluck()
        .all(...args) as number[])
    : null;
  return { runIds, probe: scope.probe ?? null };
}

/** The tag whose index range holds the scope's traces waiting in a slot. */
function walkTag(db: Db, s: ResolvedScope, slot: QueueSlot): number | undefined {
  return findTagId(db, s.probe === null ? tag.queue(ANY_FIELD, slot) : tag.queueProbe(s.probe, slot));
}

/** Runs of the scope with traces waiting under a walk tag, newest first (from the kept counts). */
function runsWaiting(db: Db, s: ResolvedScope, tagIdValue: number): number[] {
  if (s.runIds !== null && s.runIds.length === 1) return s.runIds;
  const rows = db.sqlite
    .prepare("SELECT DISTINCT run_id FROM run_counts WHERE tag_id = ? AND n > 0 ORDER BY run_id DESC")
    .pluck()
    .all(tagIdValue) as number[];
  if (s.runIds === null) return rows;
  const inScope = new Set(s.runIds);
  return rows.filter((r) => inScope.has(r));
}

const firstAfterSql = new WeakMap<Db["sqlite"], Database.Statement<unknown[]>>();

function firstAfter(db: Db, runId: number, tagIdValue: number, afterTrace: number): number | undefined {
  let stmt = firstAfterSql.get(db.sqlite);
  if (!stmt) {
    stmt = db.sqlite
      .prepare(
        "SELECT trace_id FROM trace_tags WHERE run_id = ? AND tag_id = ? AND trace_id > ? ORDER BY trace_id LIMIT 1",
      )
      .pluck();
    firstAfterSql.set(db.sqlite, stmt);
  }
  return stmt.get(runId, tagIdValue, afterTrace) as number | undefined;
}

/**
 * The queue's next item in a scope: the first trace waiting in the first slot that has one,
 * after `after` when given (a skip). Per slot: one look-up of the runs that have items (kept
 * counts) and one index seek per run tried; null when nothing waits after the position.
 */
export function nextQueueItem(db: Db, s: ResolvedScope, after?: QueuePosition | null): QueueItem | null {
  if (s.runIds !== null && s.runIds.length === 0) return null;
  const fromRank = after ? SLOT_RANK[after.slot] : 0;
  for (let rank = fromRank; rank < QUEUE_SLOTS.length; rank++) {
    const slot = QUEUE_SLOTS[rank];
    const id = walkTag(db, s, slot);
    if (id === undefined) continue;
    for (const runId of runsWaiting(db, s, id)) {
      let afterTrace = 0;
      if (after && rank === fromRank) {
        // Newest run first: runs newer than the position's are behind it.
        if (runId > after.runId) continue;
        if (runId === after.runId) afterTrace = after.traceId;
      }
      const traceId = firstAfter(db, runId, id, afterTrace);
      if (traceId !== undefined) return { traceId, runId, slot, rule: slotRule(slot) };
    }
  }
  return null;
}

/** Tag ids and names by prefix (`q:`, `qd:`): a range of the unique name index. */
function tagsWithPrefix(db: Db, prefix: string): { id: number; name: string }[] {
  return db.sqlite
    .prepare("SELECT id, name FROM tag_names WHERE name >= ? AND name < ?")
    .all(`${prefix}:`, `${prefix};`) as { id: number; name: string }[];
}

/** Kept counts of some tags over a scope, per tag id. */
export function scopeCounts(db: Db, s: ResolvedScope, tagIds: number[]): Map<number, number> {
  const out = new Map<number, number>();
  if (tagIds.length === 0 || (s.runIds !== null && s.runIds.length === 0)) return out;
  const cond = ["tag_id IN (SELECT value FROM json_each(?))"];
  const args: unknown[] = [JSON.stringify(tagIds)];
  if (s.runIds !== null) {
    cond.push("run_id IN (SELECT value FROM json_each(?))");
    args.push(JSON.stringify(s.runIds));
  }
  if (s.probe !== null) {
    cond.push("probe_id = ?");
    args.push(s.probe);
  }
  const rows = db.sqlite
    .prepare(`SELECT tag_id AS id, sum(n) AS n FROM run_counts WHERE ${cond.join(" AND ")} GROUP BY tag_id`)
    .all(...args) as { id: number; n: number }[];
  for (const r of rows) out.set(r.id, r.n);
  return out;
}

/** How far the scope's queue has come: fields waiting per rule, and reviewed ones by what the review said. */
export function queueProgress(db: Db, s: ResolvedScope): QueueProgress {
  const waiting: Partial<Record<QueueRule, number>> = {};
  const p: QueueProgress = { waiting, waitingTotal: 0, corrects: 0, confirms: 0, reviewed: 0, total: 0 };
  const names = new Map<number, string>();
  for (const t of [...tagsWithPrefix(db, "q"), ...tagsWithPrefix(db, "qd")]) {
    const parsed = parseTag(t.name);
    // Per-field tags only: a trace's twins count traces, not fields.
    if (parsed && parsed.field !== ANY_FIELD) names.set(t.id, t.name);
  }
  for (const [id, n] of scopeCounts(db, s, [...names.keys()])) {
    const t = parseTag(names.get(id) as string);
    if (!t) continue;
    if (t.kind === "queue" && isQueueSlot(t.value)) {
      const rule = slotRule(t.value);
      waiting[rule] = (waiting[rule] ?? 0) + n;
      p.waitingTotal += n;
    } else if (t.kind === "queueDone") {
      if (t.value === "corrects") p.corrects += n;
      else if (t.value === "confirms") p.confirms += n;
    }
  }
  p.reviewed = p.corrects + p.confirms;
  p.total = p.reviewed + p.waitingTotal;
  return p;
}

/** A position as the URL carries it (`slot.run.trace`), and back; a bad one reads as none. */
export function positionToParam(p: QueuePosition): string {
  return `${p.slot}.${p.runId}.${p.traceId}`;
}

export function parsePosition(v: string | undefined): QueuePosition | null {
  const m = v ? /^([a-z_]+)\.(\d{1,15})\.(\d{1,15})$/.exec(v) : null;
  if (!m || !isQueueSlot(m[1])) return null;
  return { slot: m[1], runId: Number(m[2]), traceId: Number(m[3]) };
}

export interface ScopeChoice {
  name: string;
  model: string | null;
  waiting: number;
}

/** Runs with fields waiting (newest first, at most `limit`): where to go when a scope is done or empty. */
export function runsWithWaiting(db: Db, limit = 8): ScopeChoice[] {
  const twins = QUEUE_SLOTS.map((r) => findTagId(db, tag.queue(ANY_FIELD, r))).filter(
    (x): x is number => x !== undefined,
  );
  if (twins.length === 0) return [];
  const runIds = db.sqlite
    .prepare(
      `SELECT DISTINCT run_id FROM run_counts WHERE tag_id IN (SELECT value FROM json_each(?)) AND n > 0
       ORDER BY run_id DESC LIMIT ?`,
    )
    .pluck()
    .all(JSON.stringify(twins), limit) as number[];
  return runIds.map((id) => {
    const run = db.sqlite.prepare("SELECT name, model FROM runs WHERE id = ?").get(id) as {
      name: string;
      model: string | null;
    };
    return { ...run, waiting: queueProgress(db, { runIds: [id], probe: null }).waitingTotal };
  });
}
