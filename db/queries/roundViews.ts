/**
 * What the blind pages read (app/review/rounds, app/review/adjudicate). The blind field view
 * carries the world and the response only: never the scorer's label, reasons, flags, queue rule,
 * history or other reviews (they reveal the label). The reveal, read after the reviewer saved,
 * carries them.
 */

import type { NormalizedResponse } from "../../lib/probe/response";
import type { Probe } from "../../lib/probe/schema";
import type { Db } from "../client";
import { getProbeVersion } from "./probes";
import type { Round } from "./rounds";

/** A field of a round as a blind reviewer sees it. */
export interface BlindField {
  traceId: number;
  field: string;
  probeId: string;
  /** The probe's world at the trace's version (undefined if that version is gone). */
  probe: Probe | undefined;
  response: NormalizedResponse;
}

export function blindField(db: Db, traceId: number, field: string): BlindField | undefined {
  const t = db.sqlite
    .prepare(
      "SELECT id, probe_id AS probeId, probe_version AS probeVersion, response FROM traces WHERE id = ?",
    )
    .get(traceId) as { id: number; probeId: string; probeVersion: number; response: string } | undefined;
  if (!t) return undefined;
  return {
    traceId: t.id,
    field,
    probeId: t.probeId,
    probe: getProbeVersion(db, t.probeId, t.probeVersion),
    response: JSON.parse(t.response) as NormalizedResponse,
  };
}

/** A response's tool calls for reading: arguments sent as a JSON string are shown parsed. */
export function readableCalls(calls: unknown[]): unknown[] {
  return calls.map((c) => {
    if (!c || typeof c !== "object") return c;
    const call = c as { arguments?: unknown };
    if (typeof call.arguments !== "string") return c;
    try {
      return { ...call, arguments: JSON.parse(call.arguments) };
    } catch {
      return c;
    }
  });
}

export interface RoundReviewView {
  id: number;
  kind: string;
  label: string | null;
  reviewer: string;
  note: string;
  createdAt: string;
}

/** What a reviewer sees after saving (and an adjudicator sees): the scorer's label and every review of the round. */
export interface Reveal {
  traceId: number;
  field: string;
  ours: string | undefined;
  reviews: RoundReviewView[];
  state: string;
}

export function reveal(db: Db, roundId: number, traceId: number, field: string): Reveal | undefined {
  const f = db.sqlite
    .prepare("SELECT state FROM round_fields WHERE round_id = ? AND trace_id = ? AND field = ?")
    .get(roundId, traceId, field) as { state: string } | undefined;
  if (!f) return undefined;
  const labels = db.sqlite.prepare("SELECT labels FROM traces WHERE id = ?").pluck().get(traceId) as
    | string
    | undefined;
  const ours = labels ? (JSON.parse(labels) as Record<string, string>)[field] : undefined;
  const reviews = db.sqlite
    .prepare(
      `SELECT id, kind, label, reviewer, note, created_at AS createdAt FROM reviews
       WHERE kind IN ('blind', 'adjudication') AND trace_id = ? AND field = ? AND round_id = ? ORDER BY id`,
    )
    .all(traceId, field, roundId) as RoundReviewView[];
  return { traceId, field, ours, reviews, state: f.state };
}

/** How far a reviewer has come in a round. */
export interface ReviewerProgress {
  done: number;
  /** Fields the round still needs reviews for (open ones). */
  open: number;
  fields: number;
}

export function reviewerProgress(db: Db, round: Round, reviewer: string | null): ReviewerProgress {
  const done = reviewer
    ? (db.sqlite
        .prepare("SELECT count(*) FROM round_claims WHERE round_id = ? AND reviewer = ? AND state = 'done'")
        .pluck()
        .get(round.id, reviewer) as number)
    : 0;
  const c = db.sqlite
    .prepare("SELECT count(*) AS fields, coalesce(sum(open), 0) AS open FROM round_fields WHERE round_id = ?")
    .get(round.id) as { fields: number; open: number };
  return { done, open: c.open, fields: c.fields };
}

/** A disputed field waiting for adjudication. */
export interface DisputedField {
  roundId: number;
  roundName: string;
  traceId: number;
  field: string;
}

/** Disputed fields of every open round (or one), in round order, at most `limit`. */
export function disputedFields(db: Db, roundId?: number, limit = 50): DisputedField[] {
  return db.sqlite
    .prepare(
      `SELECT f.round_id AS roundId, r.name AS roundName, f.trace_id AS traceId, f.field
       FROM review_rounds r JOIN round_fields f ON f.round_id = r.id AND f.state = 'disputed'
       WHERE (? IS NULL OR r.id = ?) ORDER BY r.id, f.pos LIMIT ?`,
    )
    .all(roundId ?? null, roundId ?? null, limit) as DisputedField[];
}

export function disputedCount(db: Db): number {
  return db.sqlite
    .prepare(
      "SELECT count(*) FROM review_rounds r JOIN round_fields f ON f.round_id = r.id AND f.state = 'disputed'",
    )
    .pluck()
    .get() as number;
}
