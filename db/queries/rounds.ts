/**
 * Blind rounds in storage (lib/review/rounds.ts has the rules): a round's fields are written once,
 * when it is made, in the round's seeded random order (`round_fields.pos`); a reviewer claims the
 * next field with a lease (`round_claims`), and a claim never hands a field to the same reviewer
 * twice nor past the round's N (blind reviews plus live leases). Every claim reads index ranges
 * only: the reviewer's last position, the open fields after it, the live leases of the round.
 *
 * Writes run inside the one write path (db/write.ts): `write` on the server, `writeSync` on the
 * command line; the functions here check they are in a transaction.
 */

import { UserError } from "../../lib/errors";
import { LABELS, type Label } from "../../lib/probe/schema";
import { MAX_NOTE_LENGTH, MAX_REVIEWER_LENGTH } from "../../lib/review/contract";
import {
  LEASE_MS,
  MAX_REVIEWS_PER_FIELD,
  MIN_REVIEWS_PER_FIELD,
  mayTakePart,
  ORDER_MULTIPLIER,
  ORDER_PRIME,
  ROUND_SCOPES,
  type RoundScope,
  roundFieldState,
  roundSeed,
} from "../../lib/review/rounds";
import type { Db } from "../client";
import { currentReviews, type Review, writeReviews } from "./reviews";

export type RoundErrorCode =
  | "bad_name"
  | "name_taken"
  | "bad_scope"
  | "empty_scope"
  | "bad_n"
  | "bad_reviewer"
  | "no_round"
  | "closed"
  | "not_participant"
  | "not_in_round"
  | "already_reviewed"
  | "full"
  | "bad_label"
  | "bad_note"
  | "not_disputed";

export class RoundError extends UserError<RoundErrorCode> {}

export interface Round {
  id: number;
  name: string;
  scopeKind: RoundScope;
  scopeValue: string;
  reviewsPerField: number;
  participants: string[] | null;
  seed: number;
  createdBy: string;
  createdAt: string;
  closedAt: string | null;
}

export interface RoundInput {
  name: string;
  scopeKind: string;
  scopeValue: string;
  reviewsPerField?: number;
  participants?: string[] | null;
  createdBy: string;
  /** Fixed in tests; random otherwise. */
  seed?: number;
}

const ROUND_COLUMNS = `id, name, scope_kind AS scopeKind, scope_value AS scopeValue,
  reviews_per_field AS reviewsPerField, participants, seed, created_by AS createdBy,
  created_at AS createdAt, closed_at AS closedAt`;

type RoundRow = Omit<Round, "participants"> & { participants: string | null };
const toRound = (r: RoundRow): Round => ({
  ...r,
  participants: r.participants === null ? null : (JSON.parse(r.participants) as string[]),
});

function mustWrite(db: Db, what: string): void {
  if (!db.sqlite.inTransaction) throw new Error(`${what} runs inside write() or writeSync() (db/write.ts)`);
}

function checkReviewer(name: string): string {
  const r = name.trim();
  if (r === "" || r.length > MAX_REVIEWER_LENGTH)
    throw new RoundError(
      "bad_reviewer",
      `a reviewer name of 1 to ${MAX_REVIEWER_LENGTH} characters is required`,
    );
  return r;
}

/** The scope's traces as SQL over `traces t` (the scope value is the one parameter). */
function scopeWhere(kind: RoundScope): string {
  if (kind === "run") return "t.run_id = (SELECT id FROM runs WHERE name = ?)";
  if (kind === "probe") return "t.probe_id = ?";
  return "t.run_id IN (SELECT id FROM runs WHERE model = ?)";
}

/**
 * Makes a round and writes its fields (every probed field of every trace in scope) in the round's
 * order. Returns the round and how many fields it holds.
 */
export function createRound(db: Db, input: RoundInput): { round: Round; fields: number } {
  mustWrite(db, "createRound");
  const name = input.name.trim();
  if (name === "" || name.length > 100)
    throw new RoundError("bad_name", "a round needs a name of 1 to 100 characters");
  if (!(ROUND_SCOPES as readonly string[]).includes(input.scopeKind))
    throw new RoundError(
      "bad_scope",
      `a round's scope is one of ${ROUND_SCOPES.join(", ")}, not "${input.scopeKind}"`,
    );
  const scopeKind = input.scopeKind as RoundScope;
  const scopeValue = input.scopeValue.trim();
  if (scopeValue === "") throw new RoundError("bad_scope", `name the ${scopeKind} the round reviews`);
  const n = input.reviewsPerField ?? 2;
  if (!Number.isInteger(n) || n < MIN_REVIEWS_PER_FIELD || n > MAX_REVIEWS_PER_FIELD)
    throw new RoundError(
      "bad_n",
      `reviews per field is a whole number from ${MIN_REVIEWS_PER_FIELD} to ${MAX_REVIEWS_PER_FIELD}, not ${n}`,
    );
  const participants =
    input.participants && input.participants.length > 0
      ? [...new Set(input.participants.map(checkReviewer))]
      : null;
  if (participants && participants.length < n)
    throw new RoundError(
      "bad_n",
      `${n} reviews per field need at least ${n} participants (${participants.length} named)`,
    );
  const createdBy = checkReviewer(input.createdBy);
  if (db.sqlite.prepare("SELECT 1 FROM review_rounds WHERE name = ?").get(name))
    throw new RoundError("name_taken", `there is already a round named "${name}"`);
  const seed = input.seed ?? roundSeed();
  const row = db.sqlite
    .prepare(
      `INSERT INTO review_rounds(name, scope_kind, scope_value, reviews_per_field, participants, seed, created_by)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${ROUND_COLUMNS}`,
    )
    .get(
      name,
      scopeKind,
      scopeValue,
      n,
      participants ? JSON.stringify(participants) : null,
      seed,
      createdBy,
    ) as RoundRow;
  // The order: a seeded permutation of trace ids (lib/review/rounds.ts, orderKey), fields by name.
  const fields = db.sqlite
    .prepare(
      `INSERT INTO round_fields(round_id, pos, trace_id, field)
       SELECT ?, row_number() OVER (ORDER BY ((t.id + ?) * ${ORDER_MULTIPLIER}) % ${ORDER_PRIME}, j.key), t.id, j.key
       FROM traces t, json_each(t.labels) j WHERE ${scopeWhere(scopeKind)}`,
    )
    .run(row.id, seed, scopeValue).changes;
  if (fields === 0)
    throw new RoundError("empty_scope", `the ${scopeKind} "${scopeValue}" has no traces with probed fields`);
  return { round: toRound(row), fields };
}

export function getRound(db: Db, id: number): Round | undefined {
  const r = db.sqlite.prepare(`SELECT ${ROUND_COLUMNS} FROM review_rounds WHERE id = ?`).get(id) as
    | RoundRow
    | undefined;
  return r ? toRound(r) : undefined;
}

export function getRoundByName(db: Db, name: string): Round | undefined {
  const r = db.sqlite.prepare(`SELECT ${ROUND_COLUMNS} FROM review_rounds WHERE name = ?`).get(name) as
    | RoundRow
    | undefined;
  return r ? toRound(r) : undefined;
}

export interface RoundCounts {
  fields: number;
  open: number;
  single: number;
  agreed: number;
  disputed: number;
  adjudicated: number;
}

/** Per state, how many of a round's fields are in it (one index range per state). */
export function roundCounts(db: Db, roundId: number): RoundCounts {
  const rows = db.sqlite
    .prepare("SELECT state, count(*) AS n FROM round_fields WHERE round_id = ? GROUP BY state")
    .all(roundId) as { state: keyof RoundCounts; n: number }[];
  const out: RoundCounts = { fields: 0, open: 0, single: 0, agreed: 0, disputed: 0, adjudicated: 0 };
  for (const r of rows) {
    out[r.state] = r.n;
    out.fields += r.n;
  }
  return out;
}

export interface RoundListItem extends Round {
  counts: RoundCounts;
}

/** Rounds, newest first, with their counts. */
export function listRounds(db: Db, limit = 100): RoundListItem[] {
  const rows = db.sqlite
    .prepare(`SELECT ${ROUND_COLUMNS} FROM review_rounds ORDER BY id DESC LIMIT ?`)
    .all(limit) as RoundRow[];
  return rows.map((r) => ({ ...toRound(r), counts: roundCounts(db, r.id) }));
}

/** A field of a round handed to a reviewer. */
export interface Claim {
  roundId: number;
  traceId: number;
  field: string;
  pos: number;
  expiresAt: string;
}

const nowIso = (now: number) => new Date(now).toISOString();

/** Lets the round's expired leases go: their fields may be offered to others again. */
export function lapseLeases(db: Db, round: Round, now = Date.now()): number {
  mustWrite(db, "lapseLeases");
  const lapsed = db.sqlite
    .prepare(
      `UPDATE round_claims SET state = 'lapsed' WHERE round_id = ? AND state = 'live' AND expires_at < ?
       RETURNING pos`,
    )
    .pluck()
    .all(round.id, nowIso(now)) as number[];
  const free = db.sqlite.prepare(
    "UPDATE round_fields SET taken = taken - 1, open = (taken - 1 < ?) WHERE round_id = ? AND pos = ?",
  );
  for (const pos of lapsed) free.run(round.reviewsPerField, round.id, pos);
  return lapsed.length;
}

/** How many open fields after a reviewer's last position a claim reads at most before it gives up. */
const SCAN_LIMIT = 2000;

/**
 * The next field of a round for a reviewer, with a lease: the reviewer's live lease if one holds,
 * else the first open field (fewer than N reviews and live leases) after the last one they were
 * offered that they never were offered nor reviewed, else (the tail, where leases lapsed) the
 * first such field from the start. undefined when the round has nothing left for them.
 */
export function claimNext(
  db: Db,
  roundId: number,
  reviewerName: string,
  now = Date.now(),
): Claim | undefined {
  mustWrite(db, "claimNext");
  const reviewer = checkReviewer(reviewerName);
  const round = getRound(db, roundId);
  if (!round) throw new RoundError("no_round", `there is no round ${roundId}`);
  if (round.closedAt) throw new RoundError("closed", `round "${round.name}" is closed`);
  if (!mayTakePart(round.participants, reviewer))
    throw new RoundError(
      "not_participant",
      `${reviewer} is not among the participants of round "${round.name}"`,
    );
  lapseLeases(db, round, now);
  // The reviewer's live lease, read through the round's few live leases (`+reviewer`: not through
  // the reviewer's index, which holds every field they were ever offered).
  const live = db.sqlite
    .prepare(
      `SELECT round_id AS roundId, trace_id AS traceId, field, pos, expires_at AS expiresAt FROM round_claims
       WHERE round_id = ? AND state = 'live' AND +reviewer = ? ORDER BY pos LIMIT 1`,
    )
    .get(round.id, reviewer) as Claim | undefined;
  if (live) return live;
  const last =
    (db.sqlite
      .prepare("SELECT max(pos) FROM round_claims WHERE round_id = ? AND reviewer = ?")
      .pluck()
      .get(round.id, reviewer) as number | null) ?? 0;
  const candidates = db.sqlite.prepare(
    `SELECT pos, trace_id AS traceId, field FROM round_fields WHERE round_id = ? AND open = 1 AND pos > ?
     ORDER BY pos LIMIT ?`,
  );
  const offered = db.sqlite.prepare(
    "SELECT 1 FROM round_claims WHERE round_id = ? AND trace_id = ? AND field = ? AND reviewer = ?",
  );
  const reviewedBlind = db.sqlite.prepare(
    "SELECT 1 FROM reviews WHERE kind = 'blind' AND trace_id = ? AND field = ? AND reviewer = ? LIMIT 1",
  );
  for (const from of last > 0 ? [last, 0] : [0]) {
    let after = from;
    let scanned = 0;
    while (scanned < SCAN_LIMIT) {
      const batch = candidates.all(round.id, after, 64) as { pos: number; traceId: number; field: string }[];
      if (batch.length === 0) break;
      for (const c of batch) {
        if (offered.get(round.id, c.traceId, c.field, reviewer)) continue;
        if (reviewedBlind.get(c.traceId, c.field, reviewer)) continue;
        return takeLease(db, round, reviewer, c, now);
      }
      scanned += batch.length;
      after = batch[batch.length - 1].pos;
    }
  }
  return undefined;
}

function takeLease(
  db: Db,
  round: Round,
  reviewer: string,
  c: { pos: number; traceId: number; field: string },
  now: number,
): Claim {
  const expiresAt = nowIso(now + LEASE_MS);
  db.sqlite
    .prepare(
      `INSERT INTO round_claims(round_id, trace_id, field, reviewer, pos, expires_at, state) VALUES (?, ?, ?, ?, ?, ?, 'live')
       ON CONFLICT DO UPDATE SET state = 'live', expires_at = excluded.expires_at`,
    )
    .run(round.id, c.traceId, c.field, reviewer, c.pos, expiresAt);
  db.sqlite
    .prepare(
      "UPDATE round_fields SET taken = taken + 1, open = (taken + 1 < ?) WHERE round_id = ? AND pos = ?",
    )
    .run(round.reviewsPerField, round.id, c.pos);
  return { roundId: round.id, traceId: c.traceId, field: c.field, pos: c.pos, expiresAt };
}

interface FieldRow {
  pos: number;
  taken: number;
  reviewed: number;
  state: string;
}

function roundField(db: Db, roundId: number, traceId: number, field: string): FieldRow | undefined {
  return db.sqlite
    .prepare(
      "SELECT pos, taken, reviewed, state FROM round_fields WHERE round_id = ? AND trace_id = ? AND field = ?",
    )
    .get(roundId, traceId, field) as FieldRow | undefined;
}

/** Recomputes a round field's state from its counted blind reviews and adjudication. */
function restate(db: Db, roundId: number, traceId: number, field: string): string {
  const rows = db.sqlite
    .prepare(
      `SELECT kind, label, reviewer FROM reviews WHERE kind IN ('blind', 'adjudication') AND trace_id = ? AND field = ?
       AND round_id = ? ORDER BY id`,
    )
    .all(traceId, field, roundId) as { kind: string; label: string | null; reviewer: string }[];
  const seen = new Set<string>();
  const labels: (string | null)[] = [];
  let adjudicated: string | null = null;
  for (const r of rows) {
    if (r.kind === "adjudication") adjudicated = r.label;
    else if (r.label !== null && !seen.has(r.reviewer)) {
      seen.add(r.reviewer);
      labels.push(r.label);
    }
  }
  const state = roundFieldState(labels, adjudicated);
  db.sqlite
    .prepare("UPDATE round_fields SET state = ? WHERE round_id = ? AND trace_id = ? AND field = ?")
    .run(state, roundId, traceId, field);
  return state;
}

function checkLabelAndNote(label: string, note: string | undefined): Label {
  const up = label.trim().toUpperCase();
  if (!(LABELS as readonly string[]).includes(up))
    throw new RoundError("bad_label", `"${label}" is not a label (${LABELS.join(", ")})`);
  if ((note ?? "").length > MAX_NOTE_LENGTH)
    throw new RoundError("bad_note", `a note holds at most ${MAX_NOTE_LENGTH} characters`);
  return up as Label;
}

export interface BlindInput {
  roundId: number;
  traceId: number;
  field: string;
  reviewer: string;
  label: string;
  note?: string;
}

export interface BlindResult {
  review: Review;
  /** The field's state in the round after this review. */
  state: string;
}

/**
 * Writes a reviewer's blind review of a field of a round: the one their lease holds, or (scripted
 * annotation, `label --blind`) one they never were offered while fewer than N hold it. A reviewer
 * reviews a field blind once: a second is refused (a later relabel is an ordinary review).
 */
export function writeBlindReview(db: Db, input: BlindInput, now = Date.now()): BlindResult {
  mustWrite(db, "writeBlindReview");
  const reviewer = checkReviewer(input.reviewer);
  const label = checkLabelAndNote(input.label, input.note);
  const round = getRound(db, input.roundId);
  if (!round) throw new RoundError("no_round", `there is no round ${input.roundId}`);
  if (round.closedAt) throw new RoundError("closed", `round "${round.name}" is closed`);
  if (!mayTakePart(round.participants, reviewer))
    throw new RoundError(
      "not_participant",
      `${reviewer} is not among the participants of round "${round.name}"`,
    );
  const f = roundField(db, round.id, input.traceId, input.field);
  if (!f)
    throw new RoundError(
      "not_in_round",
      `trace ${input.traceId} field "${input.field}" is not in round "${round.name}"`,
    );
  lapseLeases(db, round, now);
  const claim = db.sqlite
    .prepare(
      "SELECT state FROM round_claims WHERE round_id = ? AND trace_id = ? AND field = ? AND reviewer = ?",
    )
    .pluck()
    .get(round.id, input.traceId, input.field, reviewer) as string | undefined;
  const own = db.sqlite
    .prepare(
      "SELECT 1 FROM reviews WHERE kind = 'blind' AND trace_id = ? AND field = ? AND reviewer = ? LIMIT 1",
    )
    .get(input.traceId, input.field, reviewer);
  if (claim === "done" || own)
    throw new RoundError(
      "already_reviewed",
      `${reviewer} has already reviewed trace ${input.traceId} field "${input.field}" blind; relabel it on the trace page`,
    );
  if (claim !== "live") {
    // No live lease (never claimed, or it lapsed): take a place if one is free.
    const fresh = roundField(db, round.id, input.traceId, input.field) as FieldRow;
    if (fresh.taken >= round.reviewsPerField)
      throw new RoundError(
        "full",
        `trace ${input.traceId} field "${input.field}" already has ${round.reviewsPerField} reviews or leases in round "${round.name}"`,
      );
    takeLease(db, round, reviewer, { pos: f.pos, traceId: input.traceId, field: input.field }, now);
  }
  const res = writeReviews(db, {
    traceId: input.traceId,
    reviewer,
    note: input.note,
    kind: "blind",
    roundId: round.id,
    items: [{ field: input.field, label, base: null }],
  });
  if (!res.ok) throw new RoundError("already_reviewed", `${reviewer} has already reviewed this field blind`);
  db.sqlite
    .prepare(
      "UPDATE round_claims SET state = 'done' WHERE round_id = ? AND trace_id = ? AND field = ? AND reviewer = ?",
    )
    .run(round.id, input.traceId, input.field, reviewer);
  db.sqlite
    .prepare("UPDATE round_fields SET reviewed = reviewed + 1 WHERE round_id = ? AND pos = ?")
    .run(round.id, f.pos);
  return { review: res.reviews[0], state: restate(db, round.id, input.traceId, input.field) };
}

export interface AdjudicationInput {
  roundId: number;
  traceId: number;
  field: string;
  reviewer: string;
  label: string;
  note?: string;
}

/** Writes the settled label of a disputed field of a round (an adjudication review). */
export function writeAdjudication(db: Db, input: AdjudicationInput): BlindResult {
  mustWrite(db, "writeAdjudication");
  const reviewer = checkReviewer(input.reviewer);
  const label = checkLabelAndNote(input.label, input.note);
  const round = getRound(db, input.roundId);
  if (!round) throw new RoundError("no_round", `there is no round ${input.roundId}`);
  const f = roundField(db, round.id, input.traceId, input.field);
  if (!f)
    throw new RoundError(
      "not_in_round",
      `trace ${input.traceId} field "${input.field}" is not in round "${round.name}"`,
    );
  if (f.state !== "disputed" && f.state !== "adjudicated")
    throw new RoundError(
      "not_disputed",
      `trace ${input.traceId} field "${input.field}" is ${f.state} in round "${round.name}": only a disputed field is adjudicated`,
    );
  // The adjudicator saw every review: the base is the field's current review as it is now.
  const base = currentReviews(db, input.traceId).get(input.field)?.id ?? null;
  const res = writeReviews(db, {
    traceId: input.traceId,
    reviewer,
    note: input.note,
    kind: "adjudication",
    roundId: round.id,
    items: [{ field: input.field, label, base }],
  });
  if (!res.ok) throw new RoundError("not_disputed", "the field changed while it was adjudicated: reload it");
  return { review: res.reviews[0], state: restate(db, round.id, input.traceId, input.field) };
}
