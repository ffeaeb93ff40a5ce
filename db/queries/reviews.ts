/**
 * How reviews are written: the review action of the trace page and the queue, `assumeprobe label`,
 * bulk relabel and the demo all call `writeReviews` inside the one write path (`db/write.ts`:
 * `write` on the server's request thread, which waits for the lock without holding the thread;
 * `writeSync` on the command line and worker threads), alone or beside other writes of the same
 * transaction (a bulk batch, `label --set`'s fixtures).
 *
 * A submission names, per field, the review it saw as current (`base`, null for none). In that
 * one short IMMEDIATE transaction every base is checked against the field's current review; if any
 * differs nothing is written and the current reviews come back (who, label, when, note).
 * Otherwise the reviews are appended, and the trace's human-label tags (`hl:`, `h:`, `rv:` and
 * their any-field twins, `hp:`), its review-queue tags (`q:`, `qp:`, `qd:`), its tag signature and
 * the run's counts are rewritten to match: filters and counts on human labels mean the current
 * human label, and a reviewed field leaves the queue.
 */

import type Database from "better-sqlite3";
import { UserError } from "../../lib/errors";
import { tagSignature } from "../../lib/ingest/tagSignature";
import { type CurrentReviewLabels, humanTags, queueTags, tag, traceTags } from "../../lib/ingest/tags";
import { LABELS, type Label } from "../../lib/probe/schema";
import type { TraceScore } from "../../lib/probe/score";
import { MAX_NOTE_LENGTH, MAX_REVIEWER_LENGTH, type ReviewJson } from "../../lib/review/contract";
import { DISPUTED, type HumanLabel, humanLabel, undoLabel } from "../../lib/review/humanLabel";
import { type FieldState, fieldRound, type ReviewKind } from "../../lib/review/rounds";
import type { Db } from "../client";
import { findTagId, tagId } from "./tags";

export interface Review {
  id: number;
  traceId: number;
  field: string;
  /** null: a clear. */
  label: Label | null;
  reviewer: string;
  note: string;
  /** The review that was current when this one was written. */
  replaces: number | null;
  createdAt: string;
  /** 'review', 'blind' or 'adjudication' (lib/review/rounds.ts). */
  kind: ReviewKind;
  roundId: number | null;
  /**
   * Set on a field's current review when blind reviews decide it (lib/review/rounds.ts). A
   * disputed field's current review is its newest with `label` null and `disputed` true.
   */
  state?: FieldState;
  disputed?: boolean;
}

export interface ReviewItem {
  field: string;
  /** null clears. Ignored with `undo`. */
  label: Label | null;
  /** The review the reviewer saw as the field's current one; null: none. */
  base: number | null;
  /** Write the label of the review `base` replaced (undo of `base`, which must be current). */
  undo?: boolean;
}

export interface ReviewSubmission {
  traceId: number;
  reviewer: string;
  note?: string;
  items: ReviewItem[];
  /**
   * 'review' (default), 'blind' or 'adjudication' (lib/review/rounds.ts). A blind review's base is
   * the reviewer's own newest blind review of the field (one chain per reviewer); the others' is
   * the field's current review.
   */
  kind?: ReviewKind;
  /** The round of a blind review or adjudication. */
  roundId?: number | null;
}

export interface ReviewConflict {
  field: string;
  /** The field's current review, which the submission did not name; null when it has none. */
  current: Review | null;
}

export type SubmitResult = { ok: true; reviews: Review[] } | { ok: false; conflicts: ReviewConflict[] };

export type ReviewErrorCode =
  | "no_trace"
  | "no_items"
  | "unknown_field"
  | "duplicate_field"
  | "bad_label"
  | "bad_reviewer"
  | "bad_note"
  | "nothing_to_undo";

/** A submission that cannot be written as given (not a conflict): says what was wrong. */
export class ReviewError extends UserError<ReviewErrorCode> {}

const MAX_REVIEWER = MAX_REVIEWER_LENGTH;
const MAX_NOTE = MAX_NOTE_LENGTH;

const REVIEW_COLUMNS = `id, trace_id AS traceId, field, label, reviewer, note, replaces, created_at AS createdAt, kind, round_id AS roundId`;

/** What the review write path reads of a trace (the test kits' slow recounts read every trace so). */
export interface TraceRow {
  id: number;
  runId: number;
  probeId: string;
  result: string;
  human: string | null;
  recorded: string | null;
  /** The response text (the review queue's rules read it). */
  text: string | null;
}

/** The read of TraceRows, before its WHERE. */
export const TRACE_ROW_SELECT =
  "SELECT id, run_id AS runId, probe_id AS probeId, result, human, recorded, json_extract(response, '$.text') AS text FROM traces";

type Stmt = Database.Statement<unknown[]>;

interface Statements {
  trace: Stmt;
  current: Stmt;
  byId: Stmt;
  insert: Stmt;
  sigOf: Stmt;
  setSig: Stmt;
  addTags: Stmt;
  dropTags: Stmt;
  count: Stmt;
  dropZero: Stmt;
  history: Stmt;
  ownBlind: Stmt;
}

const statements = new WeakMap<Db["sqlite"], Statements>();

function prepared(db: Db): Statements {
  let s = statements.get(db.sqlite);
  if (!s) {
    const p = (sql: string) => db.sqlite.prepare(sql);
    s = {
      trace: p(`${TRACE_ROW_SELECT} WHERE id = ?`),
      // Each field's newest review, and every blind review and adjudication (blind rounds decide
      // the current review from them: lib/review/rounds.ts).
      current: p(
        `SELECT ${REVIEW_COLUMNS} FROM reviews WHERE id IN (SELECT max(id) FROM reviews WHERE trace_id = ? GROUP BY field)
         UNION SELECT ${REVIEW_COLUMNS} FROM reviews WHERE kind IN ('blind', 'adjudication') AND trace_id = ?`,
      ),
      byId: p(`SELECT ${REVIEW_COLUMNS} FROM reviews WHERE id = ?`),
      insert: p(
        `INSERT INTO reviews(trace_id, field, label, reviewer, note, replaces, kind, round_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         RETURNING ${REVIEW_COLUMNS}`,
      ),
      ownBlind: p(
        `SELECT ${REVIEW_COLUMNS} FROM reviews WHERE kind = 'blind' AND trace_id = ? AND field = ? AND reviewer = ?
         ORDER BY id DESC LIMIT 1`,
      ),
      sigOf: p("SELECT sig FROM trace_tags WHERE run_id = ? AND tag_id = ? AND trace_id = ?").pluck(),
      // One statement for all the trace's rows: its tag ids come as a JSON array.
      setSig: p(
        "UPDATE trace_tags SET sig = ? WHERE run_id = ? AND tag_id IN (SELECT value FROM json_each(?)) AND trace_id = ?",
      ),
      // Tag ids come as a JSON array; RETURNING names the rows that really changed, so the counts
      // follow the rows even if they had drifted from what the score says.
      addTags: p(
        `INSERT OR IGNORE INTO trace_tags(run_id, tag_id, trace_id, sig) SELECT ?, value, ?, ? FROM json_each(?)
         RETURNING tag_id`,
      ).pluck(),
      dropTags: p(
        `DELETE FROM trace_tags WHERE run_id = ? AND tag_id IN (SELECT value FROM json_each(?)) AND trace_id = ?
         RETURNING tag_id`,
      ).pluck(),
      count:
        p(`INSERT INTO run_counts(run_id, probe_id, tag_id, n) SELECT ?, ?, value, ? FROM json_each(?) WHERE true
        ON CONFLICT(run_id, probe_id, tag_id) DO UPDATE SET n = n + excluded.n`),
      dropZero: p(
        "DELETE FROM run_counts WHERE run_id = ? AND probe_id = ? AND tag_id IN (SELECT value FROM json_each(?)) AND n <= 0",
      ),
      history: p(`SELECT ${REVIEW_COLUMNS} FROM reviews WHERE trace_id = ? ORDER BY id DESC LIMIT ?`),
    };
    statements.set(db.sqlite, s);
  }
  return s;
}

/**
 * Per field, its current review from its reviews (its newest, its blind reviews and
 * adjudications): the newest, unless blind rounds decide it (lib/review/rounds.ts).
 */
function currentOf(rows: Review[]): Map<string, Review> {
  const byField = new Map<string, Review[]>();
  for (const r of rows) {
    const list = byField.get(r.field);
    if (list) list.push(r);
    else byField.set(r.field, [r]);
  }
  const out = new Map<string, Review>();
  for (const [field, list] of byField) {
    if (list.length === 1 && list[0].kind === "review") {
      out.set(field, list[0]);
      continue;
    }
    const { state, current } = fieldRound(list);
    // A review newer than the settlement stands as outside rounds: it carries no round state.
    if (current) out.set(field, state && current.kind !== "review" ? { ...current, state } : current);
    else {
      // Disputed: the newest review stands (what a submission names as its base), with no label.
      const newest = list.reduce((a, b) => (b.id > a.id ? b : a));
      out.set(field, { ...newest, label: null, state: "disputed", disputed: true });
    }
  }
  return out;
}

/** The current review of every reviewed field of a trace. */
export function currentReviews(db: Db, traceId: number): Map<string, Review> {
  const rows = prepared(db).current.all(traceId, traceId) as Review[];
  return currentOf(rows);
}

/** A trace's current review per field, or null when there is no such trace (what the review pages poll). */
export function currentReviewsIfTrace(db: Db, traceId: number): Map<string, Review> | null {
  const exists = db.sqlite.prepare("SELECT 1 FROM traces WHERE id = ?").pluck().get(traceId);
  return exists ? currentReviews(db, traceId) : null;
}

/** A trace's reviews, newest first (at most `limit`). */
export function reviewHistory(db: Db, traceId: number, limit = 500): Review[] {
  return prepared(db).history.all(traceId, limit) as Review[];
}

export function getReview(db: Db, id: number): Review | undefined {
  return prepared(db).byId.get(id) as Review | undefined;
}

/** The newest review id in the database (0 when none): a bulk relabel's "seen" mark. */
export function newestReviewId(db: Db): number {
  return db.sqlite.prepare("SELECT coalesce(max(id), 0) FROM reviews").pluck().get() as number;
}

function checkSubmission(s: ReviewSubmission, fields: Record<string, unknown>): void {
  const reviewer = s.reviewer.trim();
  if (reviewer === "" || reviewer.length > MAX_REVIEWER)
    throw new ReviewError("bad_reviewer", `a reviewer name of 1 to ${MAX_REVIEWER} characters is required`);
  if ((s.note ?? "").length > MAX_NOTE)
    throw new ReviewError("bad_note", `a note holds at most ${MAX_NOTE} characters`);
  if (s.items.length === 0) throw new ReviewError("no_items", "nothing to review: name at least one field");
  const seen = new Set<string>();
  for (const it of s.items) {
    if (!Object.hasOwn(fields, it.field)) {
      const names = Object.keys(fields);
      throw new ReviewError(
        "unknown_field",
        `trace ${s.traceId} has no probed field "${it.field}" (${names.length ? `its fields: ${names.join(", ")}` : "it probes no field"})`,
      );
    }
    if (seen.has(it.field)) throw new ReviewError("duplicate_field", `field "${it.field}" is named twice`);
    seen.add(it.field);
    if (!it.undo && it.label !== null && !(LABELS as readonly string[]).includes(it.label))
      throw new ReviewError(
        "bad_label",
        `"${it.label}" is not a label (${LABELS.join(", ")}, or none to clear)`,
      );
  }
}

function labelsOf(current: Map<string, Review>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [f, r] of current) out[f] = r.disputed ? DISPUTED : r.label;
  return out;
}

/**
 * Checks and writes one submission, inside the one write path's transaction (`write` or
 * `writeSync`; a bulk batch writes many in one). Throws ReviewError for a submission that cannot
 * be written.
 */
export function writeReviews(db: Db, s: ReviewSubmission): SubmitResult {
  // Outside a transaction the bases would be checked against a snapshot another writer can change
  // before the insert: the check and the write must hold the write lock together.
  if (!db.sqlite.inTransaction)
    throw new Error("writeReviews runs inside write() or writeSync() (db/write.ts)");
  const q = prepared(db);
  const t = q.trace.get(s.traceId) as TraceRow | undefined;
  if (!t) throw new ReviewError("no_trace", `there is no trace ${s.traceId}`);
  const score = JSON.parse(t.result) as TraceScore;
  checkSubmission(s, score.fields);
  const current = currentReviews(db, t.id);
  const kind = s.kind ?? "review";
  const reviewer = s.reviewer.trim();
  // The review each item is checked against and replaces: a blind review's chain is its reviewer's.
  const chain = new Map<string, Review | undefined>();
  for (const it of s.items)
    chain.set(
      it.field,
      kind === "blind"
        ? (q.ownBlind.get(t.id, it.field, reviewer) as Review | undefined)
        : current.get(it.field),
    );
  const conflicts: ReviewConflict[] = [];
  for (const it of s.items) {
    const cur = chain.get(it.field) ?? null;
    if ((cur?.id ?? null) !== it.base) conflicts.push({ field: it.field, current: cur });
  }
  if (conflicts.length > 0) return { ok: false, conflicts };

  const note = s.note ?? "";
  const before = labelsOf(current);
  const written: Review[] = [];
  for (const it of s.items) {
    const cur = chain.get(it.field);
    let label = it.label;
    if (it.undo) {
      if (!cur) throw new ReviewError("nothing_to_undo", `field "${it.field}" has no review to undo`);
      label = undoLabel(cur, (id) => getReview(db, id));
    }
    written.push(
      q.insert.get(t.id, it.field, label, reviewer, note, cur?.id ?? null, kind, s.roundId ?? null) as Review,
    );
  }
  // A new review need not become the field's current one (blind rounds decide: lib/review/rounds.ts).
  const after = labelsOf(currentReviews(db, t.id));
  rewriteHumanTags(db, t, score, before, after);
  return { ok: true, reviews: written };
}

/**
 * Rewrites a trace's human-label and review-queue tags from one state of its current reviews to
 * another, with the run's counts (by the rows that really changed) and the trace's tag signature.
 */
function rewriteHumanTags(
  db: Db,
  t: TraceRow,
  score: TraceScore,
  before: CurrentReviewLabels,
  after: CurrentReviewLabels,
): void {
  const q = prepared(db);
  const imported = t.human ? (JSON.parse(t.human) as Record<string, string>) : null;
  const recorded = t.recorded ? (JSON.parse(t.recorded) as Record<string, string>) : null;
  const oldTags = [
    ...humanTags(score.fields, imported, before),
    ...queueTags(t.probeId, score, imported, recorded, before, t.text),
  ];
  const newTags = [
    ...humanTags(score.fields, imported, after),
    ...queueTags(t.probeId, score, imported, recorded, after, t.text),
  ];
  const oldSet = new Set(oldTags);
  const newSet = new Set(newTags);
  const probeTag = findTagId(db, tag.probe(t.probeId));
  const stored =
    probeTag === undefined ? -1 : ((q.sigOf.get(t.runId, probeTag, t.id) as number | undefined) ?? -1);
  // Rows written before signatures existed read -1 (always checked): keep them so. Otherwise only
  // the human bits change (no other tag shares them), so the rest of the stored signature stands.
  const sig = stored === -1 ? -1 : ((stored & ~tagSignature(oldTags)) | tagSignature(newTags)) >>> 0;
  const gone: number[] = [];
  for (const name of oldSet) {
    if (newSet.has(name)) continue;
    const id = findTagId(db, name);
    if (id !== undefined) gone.push(id);
  }
  const added: number[] = [];
  for (const name of newSet) if (!oldSet.has(name)) added.push(tagId(db, name));
  if (gone.length > 0) {
    const dropped = q.dropTags.all(t.runId, JSON.stringify(gone), t.id) as number[];
    if (dropped.length > 0) {
      const ids = JSON.stringify(dropped);
      q.count.run(t.runId, t.probeId, -1, ids);
      q.dropZero.run(t.runId, t.probeId, ids);
    }
  }
  if (added.length > 0) {
    const inserted = q.addTags.all(t.runId, t.id, sig, JSON.stringify(added)) as number[];
    if (inserted.length > 0) q.count.run(t.runId, t.probeId, 1, JSON.stringify(inserted));
  }
  if (sig !== stored) {
    const ids: number[] = [];
    for (const name of traceTags(t.probeId, score, imported, recorded, after, t.text)) {
      const id = findTagId(db, name);
      if (id !== undefined) ids.push(id);
    }
    q.setSig.run(sig, t.runId, JSON.stringify(ids), t.id);
  }
}

/** Per trace, its fields' current reviews (for list rows: one indexed lookup per page). */
export function currentReviewsOf(db: Db, traceIds: number[]): Map<number, Map<string, Review>> {
  const out = new Map<number, Map<string, Review>>();
  if (traceIds.length === 0) return out;
  const ids = JSON.stringify(traceIds);
  const rows = db.sqlite
    .prepare(
      `SELECT ${REVIEW_COLUMNS} FROM reviews WHERE id IN (
         SELECT max(r.id) FROM json_each(?) j JOIN reviews r ON r.trace_id = j.value GROUP BY r.trace_id, r.field)
       UNION SELECT ${REVIEW_COLUMNS.replace(/(^|, )(\w+)/g, "$1r.$2")} FROM json_each(?) j
         JOIN reviews r ON r.kind IN ('blind', 'adjudication') AND r.trace_id = j.value`,
    )
    .all(ids, ids) as Review[];
  const perTrace = new Map<number, Review[]>();
  for (const r of rows) {
    const list = perTrace.get(r.traceId);
    if (list) list.push(r);
    else perTrace.set(r.traceId, [r]);
  }
  for (const [id, list] of perTrace) out.set(id, currentOf(list));
  return out;
}

/** A trace's human labels per field (current review, else imported), from its reviews and imported labels. */
export function humanLabelsOf(
  fields: Iterable<string>,
  reviews: Map<string, Review> | undefined,
  imported: Record<string, string> | null | undefined,
): Record<string, HumanLabel> {
  const out: Record<string, HumanLabel> = {};
  for (const f of fields) {
    const h = humanLabel(reviews?.get(f), imported?.[f]);
    if (h) out[f] = h;
  }
  return out;
}

/** A review in the shape the CLI prints (`assumeprobe label`). */
export function reviewJson(r: Review): ReviewJson {
  return {
    id: r.id,
    trace_id: r.traceId,
    field: r.field,
    label: r.label,
    reviewer: r.reviewer,
    note: r.note,
    replaces: r.replaces,
    created_at: r.createdAt,
  };
}

/**
 * Per trace, its current review labels in the shape `traceTags` takes (a re-score that rewrites a
 * trace's tags passes these, so its human-label tags keep meaning the current human label).
 */
export function currentReviewLabelsOf(db: Db, traceIds: number[]): Map<number, CurrentReviewLabels> {
  const out = new Map<number, CurrentReviewLabels>();
  for (const [id, m] of currentReviewsOf(db, traceIds)) out.set(id, labelsOf(m));
  return out;
}
