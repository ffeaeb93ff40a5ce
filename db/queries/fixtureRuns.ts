/**
 * Re-runs of fixture sets: every fixture scored by the one scorer with its probe's current
 * configuration applied to its snapshot's world, compared with its expected label and with the
 * previous re-run of the set (flips; a fixture the previous re-run did not have is new), stored
 * with the scorer version it ran under.
 */
import type { ScorerVersionParts } from "../../lib/fixtures/configuration";
import { FixtureError } from "../../lib/fixtures/errors";
import { type Change, changeOf, type RerunStats, rerunCounts, rerunStats } from "../../lib/fixtures/rerun";
import type { LabelWhy } from "../../lib/fixtures/score";
import type { NormalizedResponse } from "../../lib/probe/response";
import type { Label } from "../../lib/probe/schema";
import type { PairCount } from "../../lib/review/agreement";
import type { Db } from "../client";
import { FixtureScoring } from "./fixtureScoring";
import { type FixtureSetRow, fixtureTransaction, getSet, getSetById } from "./fixtureSets";

export type RerunOrigin = "cli" | "browser" | "demo";

export interface RerunRow {
  id: number;
  setId: number;
  scorerVersion: string;
  versions: ScorerVersionParts;
  origin: RerunOrigin;
  total: number;
  passed: number;
  failed: number;
  broke: number;
  fixed: number;
  added: number;
  createdAt: string;
}

/** One fixture of a re-run that failed or flipped. */
export interface RerunItem {
  fixtureId: number;
  identity: string;
  probe: string;
  field: string;
  expected: Label;
  label: Label;
  passed: boolean;
  change: Change | null;
  why: LabelWhy | null;
}

export interface RerunReport {
  set: FixtureSetRow;
  run: RerunRow;
  previous: RerunRow | null;
  stats: RerunStats;
  /** Failures, broken ones first. */
  failures: RerunItem[];
  /** broke and fixed. */
  flips: RerunItem[];
}

const RUN_COLUMNS = `id, set_id AS setId, scorer_version AS scorerVersion, versions, origin, total, passed, failed,
  broke, fixed, added, created_at AS createdAt`;

type RawRun = Omit<RerunRow, "versions"> & { versions: string };
const toRun = (r: RawRun): RerunRow => ({ ...r, versions: JSON.parse(r.versions) as ScorerVersionParts });

export function getRerun(db: Db, id: number): RerunRow | undefined {
  const r = db.sqlite.prepare(`SELECT ${RUN_COLUMNS} FROM fixture_runs WHERE id = ?`).get(id) as
    | RawRun
    | undefined;
  return r ? toRun(r) : undefined;
}

/** A set's re-runs, newest first. */
export function listReruns(db: Db, setId: number, limit = 50): RerunRow[] {
  return (
    db.sqlite
      .prepare(`SELECT ${RUN_COLUMNS} FROM fixture_runs WHERE set_id = ? ORDER BY id DESC LIMIT ?`)
      .all(setId, limit) as RawRun[]
  ).map(toRun);
}

/** The re-run before `runId` of the same set. */
export function previousRerun(db: Db, run: RerunRow): RerunRow | undefined {
  const r = db.sqlite
    .prepare(`SELECT ${RUN_COLUMNS} FROM fixture_runs WHERE set_id = ? AND id < ? ORDER BY id DESC LIMIT 1`)
    .get(run.setId, run.id) as RawRun | undefined;
  return r ? toRun(r) : undefined;
}

interface Scored {
  id: number;
  label: Label;
  expected: Label;
  passed: boolean;
  why: LabelWhy | null;
}

/** Scores every fixture of a set now (no write). */
function scoreSet(db: Db, setId: number, ctx: FixtureScoring): Scored[] {
  const rows = db.sqlite
    .prepare(
      "SELECT id, world_digest AS world, response, field, expected FROM fixtures WHERE set_id = ? ORDER BY id",
    )
    .all(setId) as { id: number; world: string; response: string; field: string; expected: Label }[];
  const out: Scored[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const s = ctx.scorer(r.world)(JSON.parse(r.response) as NormalizedResponse, r.field);
    const passed = s.label === r.expected;
    out[i] = { id: r.id, label: s.label, expected: r.expected, passed, why: passed ? null : s.why };
  }
  return out;
}

/** Re-runs one set and stores the re-run (one short IMMEDIATE transaction for the write). */
export function rerunSet(db: Db, name: string, origin: RerunOrigin): RerunReport {
  const set = getSet(db, name);
  if (!set) throw new FixtureError("no_set", `there is no fixture set "${name}"`);
  const ctx = new FixtureScoring(db);
  const scored = scoreSet(db, set.id, ctx);
  const versions = ctx.versions();
  const scorer = ctx.scorerVersion();
  const runId = fixtureTransaction(db, () => {
    const prevId = db.sqlite
      .prepare("SELECT max(id) FROM fixture_runs WHERE set_id = ?")
      .pluck()
      .get(set.id) as number | null;
    const prev = new Map<number, { passed: boolean }>();
    if (prevId !== null)
      for (const r of db.sqlite
        .prepare("SELECT fixture_id AS id, passed FROM fixture_results WHERE run_id = ?")
        .all(prevId) as { id: number; passed: number }[])
        prev.set(r.id, { passed: r.passed === 1 });
    const changes = scored.map((s) => changeOf(prev.get(s.id), s.passed));
    const stats = rerunCounts(scored.map((s, i) => ({ ...s, change: changes[i] })));
    const id = db.sqlite
      .prepare(
        `INSERT INTO fixture_runs(set_id, scorer_version, versions, origin, total, passed, failed, broke, fixed, added)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      )
      .pluck()
      .get(
        set.id,
        scorer,
        JSON.stringify(versions),
        origin,
        stats.total,
        stats.passed,
        stats.failed,
        stats.broke,
        stats.fixed,
        stats.added,
      ) as number;
    const insert = db.sqlite.prepare(
      "INSERT INTO fixture_results(run_id, fixture_id, label, expected, passed, change, why) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    for (let i = 0; i < scored.length; i++) {
      const s = scored[i];
      insert.run(
        id,
        s.id,
        s.label,
        s.expected,
        s.passed ? 1 : 0,
        changes[i],
        s.why ? JSON.stringify(s.why) : null,
      );
    }
    return id;
  });
  return rerunReport(db, runId) as RerunReport;
}

/** Every set re-run (the seed first), each stored as its own re-run. */
export function rerunAll(db: Db, origin: RerunOrigin): RerunReport[] {
  const names = db.sqlite
    .prepare("SELECT name FROM fixture_sets ORDER BY builtin DESC, name")
    .pluck()
    .all() as string[];
  return names.map((n) => rerunSet(db, n, origin));
}

const ITEM_COLUMNS = `r.fixture_id AS fixtureId, f.identity, f.probe_id AS probe, f.field, r.expected, r.label,
  r.passed, r.change, r.why`;

type RawItem = Omit<RerunItem, "passed" | "why"> & { passed: number; why: string | null };
const toItem = (r: RawItem): RerunItem => ({
  ...r,
  passed: r.passed === 1,
  why: r.why ? (JSON.parse(r.why) as LabelWhy) : null,
});

/** A stored re-run with its figures, failures and flips (each list up to `limit`). */
export function rerunReport(db: Db, runId: number, limit = 10_000): RerunReport | undefined {
  const run = getRerun(db, runId);
  if (!run) return undefined;
  const pairs = db.sqlite
    .prepare(
      "SELECT label AS ours, expected AS human, count(*) AS n FROM fixture_results WHERE run_id = ? GROUP BY label, expected",
    )
    .all(runId) as PairCount[];
  const failures = (
    db.sqlite
      .prepare(
        `SELECT ${ITEM_COLUMNS} FROM fixture_results r JOIN fixtures f ON f.id = r.fixture_id
         WHERE r.run_id = ? AND r.passed = 0 ORDER BY (r.change = 'broke') DESC, r.fixture_id LIMIT ?`,
      )
      .all(runId, limit) as RawItem[]
  ).map(toItem);
  const flips = (
    db.sqlite
      .prepare(
        `SELECT ${ITEM_COLUMNS} FROM fixture_results r JOIN fixtures f ON f.id = r.fixture_id
         WHERE r.run_id = ? AND r.change IN ('broke', 'fixed') ORDER BY (r.change = 'broke') DESC, r.fixture_id LIMIT ?`,
      )
      .all(runId, limit) as RawItem[]
  ).map(toItem);
  return {
    set: getSetById(db, run.setId) as FixtureSetRow,
    run,
    previous: previousRerun(db, run) ?? null,
    stats: rerunStats(run, pairs),
    failures,
    flips,
  };
}
