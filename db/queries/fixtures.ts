/**
 * The one write path of fixtures: the trace page, the review queue, a run page's bulk selection,
 * `assumeprobe label --set`, import and the seed all come through `writeFixture` (inside one
 * IMMEDIATE transaction of theirs, fixtureTransaction or a review's).
 *
 * A fixture's identity is its content's (lib/fixtures/world.ts): adding the same case again to a
 * set changes its expected label, with an entry in its history, never a second copy; the same
 * label again changes nothing. A fixture is a copy: later reviews of its source trace, or the
 * trace's deletion, leave it as it is.
 */
import type Database from "better-sqlite3";
import { FixtureError } from "../../lib/fixtures/errors";
import type { HistoryEntry, SourceRef } from "../../lib/fixtures/exportLine";
import { fixtureIdentity, type WorldSnapshot, worldDigest, worldSnapshot } from "../../lib/fixtures/world";
import { canonicalJson } from "../../lib/probe/digest";
import type { NormalizedResponse } from "../../lib/probe/response";
import { LABELS, type Label } from "../../lib/probe/schema";
import type { TraceScore } from "../../lib/probe/score";
import { type Settled, settledOf } from "../../lib/review/rounds";
import type { Db } from "../client";
import { fixtureTransaction, writableSet } from "./fixtureSets";
import { getProbeVersion } from "./probes";
import { currentReviews, humanLabelsOf } from "./reviews";

export interface FixtureInput {
  world: WorldSnapshot;
  response: NormalizedResponse;
  field: string;
  expected: Label;
  reviewer: string;
  note: string;
  /** How the expected label was settled (default single: one review, or imported). */
  settled?: Settled;
  source: SourceRef;
  sourceTraceId: number | null;
  /** When (default: now). */
  at?: string;
  /** An import's history, stored as read (its last entry is the expected label's). */
  history?: HistoryEntry[];
  createdAt?: string;
}

/** What adding did: a new fixture, a new expected label for one already there, or nothing. */
export type AddOutcome = "added" | "relabelled" | "unchanged";

export interface AddedFixture {
  id: number;
  identity: string;
  setId: number;
  field: string;
  expected: Label;
  outcome: AddOutcome;
}

type Stmt = Database.Statement<unknown[]>;
const statements = new WeakMap<Db["sqlite"], Record<string, Stmt>>();

function prepared(db: Db) {
  let s = statements.get(db.sqlite);
  if (!s) {
    const p = (sql: string) => db.sqlite.prepare(sql);
    s = {
      world: p("INSERT OR IGNORE INTO fixture_worlds(digest, probe_id, world) VALUES (?, ?, ?)"),
      find: p("SELECT id, expected, settled, history FROM fixtures WHERE set_id = ? AND identity = ?"),
      insert: p(
        `INSERT INTO fixtures(set_id, identity, probe_id, world_digest, response, field, expected, reviewer, note,
           source, source_trace_id, history, created_at, updated_at, settled)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      ),
      relabel: p(
        "UPDATE fixtures SET expected = ?, reviewer = ?, note = ?, history = ?, updated_at = ?, settled = ? WHERE id = ?",
      ),
      settle: p("UPDATE fixtures SET settled = ? WHERE id = ?"),
      touch: p("UPDATE fixture_sets SET updated_at = ? WHERE id = ?"),
    };
    statements.set(db.sqlite, s);
  }
  return s;
}

const now = () => new Date().toISOString();

/** Adds one fixture to a set (or relabels the one with its identity). Call inside a transaction. */
export function writeFixture(db: Db, setId: number, f: FixtureInput): AddedFixture {
  if (!(LABELS as readonly string[]).includes(f.expected))
    throw new FixtureError("no_label", `"${f.expected}" is not a label (${LABELS.join(", ")})`);
  const q = prepared(db);
  const identity = fixtureIdentity(f.world, f.response, f.field);
  const digest = worldDigest(f.world);
  const at = f.at ?? now();
  q.world.run(digest, f.world.id, canonicalJson(f.world));
  const found = q.find.get(setId, identity) as
    | { id: number; expected: Label; settled: string; history: string }
    | undefined;
  const base = { identity, setId, field: f.field, expected: f.expected };
  if (!found) {
    const history = f.history ?? [{ expected: f.expected, reviewer: f.reviewer, note: f.note, at }];
    const row = q.insert.get(
      setId,
      identity,
      f.world.id,
      digest,
      JSON.stringify(f.response),
      f.field,
      f.expected,
      f.reviewer,
      f.note,
      f.source === null ? null : JSON.stringify(f.source),
      f.sourceTraceId,
      JSON.stringify(history),
      f.createdAt ?? history[0]?.at ?? at,
      history[history.length - 1]?.at ?? at,
      f.settled ?? "single",
    ) as { id: number };
    q.touch.run(at, setId);
    return { ...base, id: row.id, outcome: "added" };
  }
  if (found.expected === f.expected) {
    // The same label, now settled otherwise (say, agreed by a round): the label's history stands.
    if (f.settled && f.settled !== found.settled) q.settle.run(f.settled, found.id);
    return { ...base, id: found.id, outcome: "unchanged" };
  }
  const history = JSON.parse(found.history) as HistoryEntry[];
  history.push({ expected: f.expected, reviewer: f.reviewer, note: f.note, at });
  q.relabel.run(f.expected, f.reviewer, f.note, JSON.stringify(history), at, f.settled ?? "single", found.id);
  q.touch.run(at, setId);
  return { ...base, id: found.id, outcome: "relabelled" };
}

/** What a fixture made from a trace's field holds, before its expected label. */
export type TraceCase = Omit<FixtureInput, "expected" | "reviewer" | "note">;

/**
 * A trace's field as a fixture's content: the trace's normalized response, the world of the
 * probe version that scored it, and a reference to the trace as it is now.
 */
export function traceCase(db: Db, traceId: number, field: string): TraceCase {
  const t = db.sqlite
    .prepare(
      `SELECT t.id, t.probe_id AS probeId, t.probe_version AS probeVersion, t.ext_id AS extId, t.source, t.line,
              t.response, t.result, r.name AS run
       FROM traces t JOIN runs r ON r.id = t.run_id WHERE t.id = ?`,
    )
    .get(traceId) as
    | {
        id: number;
        probeId: string;
        probeVersion: number;
        extId: string | null;
        source: string;
        line: number;
        response: string;
        result: string;
        run: string;
      }
    | undefined;
  if (!t) throw new FixtureError("no_trace", `there is no trace ${traceId}`);
  const probe = getProbeVersion(db, t.probeId, t.probeVersion);
  if (!probe)
    throw new FixtureError(
      "no_probe",
      `version ${t.probeVersion} of probe ${t.probeId} is not in the database: trace ${traceId} has no world to snapshot`,
    );
  const world = worldSnapshot(probe);
  const score = JSON.parse(t.result) as TraceScore;
  if (!world.fields.includes(field) || !Object.hasOwn(score.fields, field))
    throw new FixtureError(
      "unknown_field",
      `trace ${traceId} has no probed field "${field}" (its fields: ${world.fields.join(", ") || "none"})`,
    );
  return {
    world,
    response: JSON.parse(t.response) as NormalizedResponse,
    field,
    source: {
      trace_id: t.id,
      run: t.run,
      id: t.extId,
      probe: t.probeId,
      probe_version: t.probeVersion,
      source: t.source,
      line: t.line,
    },
    sourceTraceId: t.id,
  };
}

export interface TraceFieldAdd {
  traceId: number;
  field: string;
  expected: Label;
  note?: string;
  settled?: Settled;
}

/**
 * Adds trace fields to a set (created when missing; the seed is refused), each with its expected
 * label. Call inside a transaction (`label --set` shares its reviews'); addTraceFields wraps one.
 */
export function writeTraceFields(
  db: Db,
  setName: string,
  reviewer: string,
  items: TraceFieldAdd[],
): { set: string; created: boolean; fixtures: AddedFixture[] } {
  const { set, created } = writableSet(db, setName);
  const fixtures = items.map((it) =>
    writeFixture(db, set.id, {
      ...traceCase(db, it.traceId, it.field),
      expected: it.expected,
      reviewer,
      note: it.note ?? "",
      settled: it.settled,
    }),
  );
  return { set: set.name, created, fixtures };
}

/** writeTraceFields in its own short IMMEDIATE transaction. */
export function addTraceFields(db: Db, setName: string, reviewer: string, items: TraceFieldAdd[]) {
  return fixtureTransaction(db, () => writeTraceFields(db, setName, reviewer, items));
}

/**
 * Adds fields of one trace with their current human label (the field's current review, else its
 * imported label) as the expected label, and the review's note; fields with no human label are
 * skipped and listed. Call inside a transaction: `label --set` calls it in its reviews' own, right
 * after writing them, so the fixtures take the labels just given.
 */
export function writeHumanFields(
  db: Db,
  setName: string,
  reviewer: string,
  traceId: number,
  fields: string[],
): { set: string; created: boolean; fixtures: AddedFixture[]; skipped: string[] } {
  const t = db.sqlite.prepare("SELECT human FROM traces WHERE id = ?").get(traceId) as
    | { human: string | null }
    | undefined;
  if (!t) throw new FixtureError("no_trace", `there is no trace ${traceId}`);
  const imported = t.human ? (JSON.parse(t.human) as Record<string, string>) : null;
  const current = currentReviews(db, traceId);
  const human = humanLabelsOf(fields, current, imported);
  const items: TraceFieldAdd[] = [];
  const skipped: string[] = [];
  for (const field of fields) {
    const h = human[field];
    if (!h || !(LABELS as readonly string[]).includes(h.label)) skipped.push(field);
    else
      items.push({
        traceId,
        field,
        expected: h.label as Label,
        note: h.source === "review" ? (current.get(field)?.note ?? "") : "",
        settled: settledOf(current.get(field)?.state),
      });
  }
  if (items.length === 0) {
    const { set, created } = writableSet(db, setName);
    return { set: set.name, created, fixtures: [], skipped };
  }
  return { ...writeTraceFields(db, setName, reviewer, items), skipped };
}

/** writeHumanFields in its own short IMMEDIATE transaction (the trace page and the review queue). */
export function addHumanFields(db: Db, setName: string, reviewer: string, traceId: number, fields: string[]) {
  return fixtureTransaction(db, () => writeHumanFields(db, setName, reviewer, traceId, fields));
}
