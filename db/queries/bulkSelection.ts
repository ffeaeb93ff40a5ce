/**
 * What a run page's filter selects, field by field, as of a mark: the walk that a bulk relabel
 * (bulkReviews.ts) and a bulk add to a fixture set (fixturesBulk.ts) share.
 *
 * A mark is taken when the count is shown: `seenReviewId` (the newest review then) and
 * `lastTraceId` (the run's newest trace then). A field is selected by its review as of the mark;
 * the caller skips and lists one whose review changed since (it carries both), and traces
 * ingested since are never candidates.
 */
import type Database from "better-sqlite3";
import type { TraceScore } from "../../lib/probe/score";
import {
  type FieldFacts,
  type FieldFilter,
  selectedFields,
  withoutHuman,
} from "../../lib/review/fieldFilter";
import { fieldRound, type ReviewKind } from "../../lib/review/rounds";
import type { TraceFilter } from "../../lib/traceFilter";
import type { Db } from "../client";
import { matchingIdsAfter } from "./traceList";

export interface BulkMarkIds {
  /** The newest review id when the count was shown (0: none). */
  seenReviewId: number;
  /** The run's newest trace id when the count was shown. */
  lastTraceId: number;
}

export interface ReviewAt {
  id: number;
  label: string | null;
  reviewer: string;
  note: string;
  createdAt: string;
  kind: ReviewKind;
  /** Blind reviewers disagree and no adjudication settled it: no human label (lib/review/rounds.ts). */
  disputed?: boolean;
}

/** A field's current review from its reviews (oldest first), as blind rounds decide it. */
function currentOf(list: ReviewAt[]): ReviewAt | undefined {
  const newest = list[list.length - 1];
  if (!newest || list.every((r) => r.kind === "review")) return newest;
  const { current } = fieldRound(list);
  return current ?? { ...newest, label: null, disputed: true };
}

export interface SelectedField {
  field: string;
  /** The field's review as of the mark (what selected it). */
  asOf: ReviewAt | undefined;
  /** The field's review now. */
  current: ReviewAt | undefined;
  /** The record's imported human label, if any. */
  imported: string | undefined;
  /** The scorer's stored label of the field. */
  ours: string;
  /** Whether a review landed on the field after the mark. */
  changed: boolean;
}

const IDS_PER_READ = 256;

type Stmt = Database.Statement<unknown[]>;
const statements = new WeakMap<Db["sqlite"], { row: Stmt; reviews: Stmt; last: Stmt; newest: Stmt }>();

function prepared(db: Db) {
  let s = statements.get(db.sqlite);
  if (!s) {
    s = {
      row: db.sqlite.prepare("SELECT result, human, recorded FROM traces WHERE id = ?"),
      reviews: db.sqlite.prepare(
        "SELECT id, field, label, reviewer, note, created_at AS createdAt, kind FROM reviews WHERE trace_id = ? ORDER BY id",
      ),
      last: db.sqlite.prepare("SELECT coalesce(max(id), 0) FROM traces WHERE run_id = ?").pluck(),
      newest: db.sqlite.prepare("SELECT coalesce(max(id), 0) FROM reviews").pluck(),
    };
    statements.set(db.sqlite, s);
  }
  return s;
}

/** The mark a count is taken at: the newest review, the run's newest trace. */
export function takeMark(db: Db, runId: number): BulkMarkIds {
  const q = prepared(db);
  return { seenReviewId: q.newest.get() as number, lastTraceId: q.last.get(runId) as number };
}

/** The fields of one trace that the filter selects as of the mark (none when the trace is gone). */
export function selectAsOf(
  db: Db,
  filter: FieldFilter,
  field: string,
  seenReviewId: number,
  traceId: number,
): SelectedField[] {
  const q = prepared(db);
  const row = q.row.get(traceId) as
    | { result: string; human: string | null; recorded: string | null }
    | undefined;
  if (!row) return [];
  const score = JSON.parse(row.result) as TraceScore;
  const imported = row.human ? (JSON.parse(row.human) as Record<string, string>) : {};
  const recorded = row.recorded ? (JSON.parse(row.recorded) as Record<string, string>) : {};
  const all = new Map<string, ReviewAt[]>();
  const seen = new Map<string, ReviewAt[]>();
  for (const r of q.reviews.all(traceId) as (ReviewAt & { field: string })[]) {
    all.set(r.field, [...(all.get(r.field) ?? []), r]);
    if (r.id <= seenReviewId) seen.set(r.field, [...(seen.get(r.field) ?? []), r]);
  }
  const asOf = new Map<string, ReviewAt>();
  const current = new Map<string, ReviewAt>();
  for (const [f, list] of all) {
    const c = currentOf(list);
    if (c) current.set(f, c);
  }
  for (const [f, list] of seen) {
    const c = currentOf(list);
    if (c) asOf.set(f, c);
  }
  const facts: FieldFacts[] = Object.entries(score.fields).map(([f, s]) => ({
    field: f,
    ours: s.label,
    reasons: s.reasons ?? [],
    flags: [...s.flags, ...(score.side_effect?.fields[f]?.flags ?? [])],
    recorded: recorded[f],
    imported: imported[f],
    review: asOf.get(f),
  }));
  return selectedFields(filter, field, facts).map((x) => {
    const cur = current.get(x.field);
    return {
      field: x.field,
      asOf: asOf.get(x.field),
      current: cur,
      imported: imported[x.field],
      ours: score.fields[x.field]?.label ?? "",
      changed: cur !== undefined && cur.id > seenReviewId,
    };
  });
}

/**
 * The next candidate trace ids of a walk after `after`, up to the mark's last trace: the filter
 * without its human part (that part is evaluated per field, as of the mark).
 */
export function candidatesAfter(
  db: Db,
  spec: { runId: number; filter: TraceFilter; field: string },
  after: number,
  lastTraceId: number,
): number[] {
  const ids = matchingIdsAfter(db, spec.runId, withoutHuman(spec.filter), spec.field, after, IDS_PER_READ);
  const i = ids.findIndex((id) => id > lastTraceId);
  return i < 0 ? ids : ids.slice(0, i);
}
