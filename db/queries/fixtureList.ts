/**
 * Reads of fixture sets and fixtures for pages and the CLI: each set with its size and latest
 * re-run, a set's fixtures a page at a time (keyset by id) with their latest re-run result, and
 * one fixture with everything its page shows.
 */
import type { ScorerVersionParts } from "../../lib/fixtures/configuration";
import type { HistoryEntry, SourceRef } from "../../lib/fixtures/exportLine";
import type { Change } from "../../lib/fixtures/rerun";
import type { LabelWhy } from "../../lib/fixtures/score";
import type { WorldSnapshot } from "../../lib/fixtures/world";
import type { NormalizedResponse } from "../../lib/probe/response";
import type { Label } from "../../lib/probe/schema";
import type { Db } from "../client";
import { getRerun, type RerunRow } from "./fixtureRuns";
import { FixtureScoring } from "./fixtureScoring";
import type { FixtureSetRow } from "./fixtureSets";

export interface SetSummary extends FixtureSetRow {
  fixtures: number;
  latest: RerunRow | null;
  /** The set or the scorer changed since its latest re-run (or it never ran): its figures are old. */
  stale: boolean;
}

/** Whether a re-run's versions are the ones that would score its set now. */
function sameVersions(a: ScorerVersionParts, now: FixtureScoring, probes: string[]): boolean {
  const b = now.versions();
  if (a.package !== b.package || a.lexicon !== b.lexicon) return false;
  for (const p of probes) if ((now.probe(p).version ?? 0) !== a.probes[p]) return false;
  return Object.keys(a.probes).length === probes.length;
}

export function setSummaries(db: Db): SetSummary[] {
  const rows = db.sqlite
    .prepare(
      `SELECT s.id, s.name, s.description, s.builtin, s.created_at AS createdAt, s.updated_at AS updatedAt,
              (SELECT count(*) FROM fixtures f WHERE f.set_id = s.id) AS fixtures,
              (SELECT max(id) FROM fixture_runs r WHERE r.set_id = s.id) AS latest
       FROM fixture_sets s ORDER BY s.builtin DESC, s.name`,
    )
    .all() as (Omit<SetSummary, "builtin" | "latest" | "stale"> & {
    builtin: number;
    latest: number | null;
  })[];
  const now = new FixtureScoring(db);
  return rows.map((r) => {
    const latest = r.latest === null ? null : (getRerun(db, r.latest) ?? null);
    const probes = latest ? Object.keys(latest.versions.probes) : [];
    const stale =
      latest === null ||
      latest.total !== r.fixtures ||
      latest.createdAt < r.updatedAt ||
      !sameVersions(latest.versions, now, probes);
    return { ...r, builtin: r.builtin === 1, latest, stale };
  });
}

export function setSummary(db: Db, name: string): SetSummary | undefined {
  return setSummaries(db).find((s) => s.name === name);
}

/** A fixture as a set page lists it. */
export interface FixtureRow {
  id: number;
  identity: string;
  probe: string;
  worldDigest: string;
  field: string;
  expected: Label;
  reviewer: string;
  note: string;
  updatedAt: string;
  /** How many times its expected label changed. */
  changes: number;
  sourceTraceId: number | null;
  response: NormalizedResponse;
  /** Its result in the set's latest re-run; null when that re-run did not have it. */
  last: { label: Label; passed: boolean; change: Change | null; why: LabelWhy | null } | null;
}

export type FixtureShow = "all" | "failing" | "flips" | "passing";

export interface FixturePage {
  rows: FixtureRow[];
  /** The id to pass as `after` for the next page, or null at the end. */
  next: number | null;
}

/** A page of a set's fixtures in the order they were added, optionally only failing, flipped or passing ones. */
export function fixturePage(
  db: Db,
  setId: number,
  latestRun: number | null,
  opts: { after?: number; limit?: number; show?: FixtureShow; label?: Label } = {},
): FixturePage {
  const limit = opts.limit ?? 50;
  const where = ["f.set_id = ?", "f.id > ?"];
  const args: unknown[] = [latestRun ?? -1, setId, opts.after ?? 0];
  if (opts.show === "failing") where.push("r.passed = 0");
  else if (opts.show === "passing") where.push("r.passed = 1");
  else if (opts.show === "flips") where.push("r.change IN ('broke', 'fixed')");
  if (opts.label) {
    where.push("f.expected = ?");
    args.push(opts.label);
  }
  const rows = db.sqlite
    .prepare(
      `SELECT f.id, f.identity, f.probe_id AS probe, f.world_digest AS worldDigest, f.field, f.expected, f.reviewer,
              f.note, f.updated_at AS updatedAt, json_array_length(f.history) - 1 AS changes,
              f.source_trace_id AS sourceTraceId, f.response,
              r.label AS lastLabel, r.passed AS lastPassed, r.change AS lastChange, r.why AS lastWhy
       FROM fixtures f LEFT JOIN fixture_results r ON r.run_id = ? AND r.fixture_id = f.id
       WHERE ${where.join(" AND ")} ORDER BY f.id LIMIT ?`,
    )
    .all(...args, limit + 1) as (Omit<FixtureRow, "response" | "last"> & {
    response: string;
    lastLabel: Label | null;
    lastPassed: number | null;
    lastChange: Change | null;
    lastWhy: string | null;
  })[];
  const more = rows.length > limit;
  const page = rows.slice(0, limit).map(({ lastLabel, lastPassed, lastChange, lastWhy, response, ...r }) => ({
    ...r,
    response: JSON.parse(response) as NormalizedResponse,
    last:
      lastLabel === null
        ? null
        : {
            label: lastLabel,
            passed: lastPassed === 1,
            change: lastChange,
            why: lastWhy ? (JSON.parse(lastWhy) as LabelWhy) : null,
          },
  }));
  return { rows: page, next: more ? page[page.length - 1].id : null };
}

/** One fixture with everything its page shows. */
export interface FixtureDetail extends Omit<FixtureRow, "last"> {
  setId: number;
  /** How the expected label was settled: single, agreed or adjudicated (a blind round). */
  settled: string;
  world: WorldSnapshot;
  history: HistoryEntry[];
  source: SourceRef;
  createdAt: string;
  /** Its results in the set's re-runs, newest first. */
  results: {
    runId: number;
    createdAt: string;
    scorerVersion: string;
    label: Label;
    expected: Label;
    passed: boolean;
    change: Change | null;
  }[];
}

export function getFixture(db: Db, setId: number, identity: string): FixtureDetail | undefined {
  const r = db.sqlite
    .prepare(
      `SELECT f.id, f.set_id AS setId, f.identity, f.probe_id AS probe, f.world_digest AS worldDigest, f.field, f.expected,
              f.reviewer, f.note, f.settled, f.created_at AS createdAt, f.updated_at AS updatedAt,
              json_array_length(f.history) - 1 AS changes, f.source_trace_id AS sourceTraceId, f.response, f.history,
              f.source, w.world
       FROM fixtures f JOIN fixture_worlds w ON w.digest = f.world_digest WHERE f.set_id = ? AND f.identity = ?`,
    )
    .get(setId, identity) as
    | (Omit<FixtureDetail, "response" | "world" | "history" | "source" | "results"> & {
        response: string;
        world: string;
        history: string;
        source: string | null;
      })
    | undefined;
  if (!r) return undefined;
  const results = (
    db.sqlite
      .prepare(
        `SELECT x.run_id AS runId, u.created_at AS createdAt, u.scorer_version AS scorerVersion, x.label, x.expected,
                x.passed, x.change
         FROM fixture_results x JOIN fixture_runs u ON u.id = x.run_id
         WHERE x.fixture_id = ? ORDER BY x.run_id DESC LIMIT 50`,
      )
      .all(r.id) as (Omit<FixtureDetail["results"][number], "passed"> & { passed: number })[]
  ).map((x) => ({ ...x, passed: x.passed === 1 }));
  return {
    ...r,
    response: JSON.parse(r.response) as NormalizedResponse,
    world: JSON.parse(r.world) as WorldSnapshot,
    history: JSON.parse(r.history) as HistoryEntry[],
    source: r.source === null ? null : (JSON.parse(r.source) as SourceRef),
    results,
  };
}

/** The sets that hold a fixture made from a trace (for the trace page). */
export function setsOfTrace(
  db: Db,
  traceId: number,
): { set: string; identity: string; field: string; expected: Label }[] {
  return db.sqlite
    .prepare(
      `SELECT s.name AS "set", f.identity, f.field, f.expected FROM fixtures f JOIN fixture_sets s ON s.id = f.set_id
       WHERE f.source_trace_id = ? ORDER BY s.name, f.field`,
    )
    .all(traceId) as { set: string; identity: string; field: string; expected: Label }[];
}

/** Fixtures made from a run's traces (kept when the run is deleted) and the reviews that go with it. */
export function runDeletionImpact(
  db: Db,
  runId: number,
): { reviews: number; reviewers: string[]; fixtures: number } {
  // Reviews first, each looked up by its trace: a run's reviews are few beside its traces.
  const reviews = db.sqlite
    .prepare(
      `SELECT count(*) AS n, group_concat(DISTINCT r.reviewer) AS who
       FROM reviews r CROSS JOIN traces t ON t.id = r.trace_id WHERE t.run_id = ?`,
    )
    .get(runId) as { n: number; who: string | null };
  const fixtures = db.sqlite
    .prepare(
      `SELECT count(*) FROM fixtures f CROSS JOIN traces t ON t.id = f.source_trace_id
       WHERE f.source_trace_id IS NOT NULL AND t.run_id = ?`,
    )
    .pluck()
    .get(runId) as number;
  return {
    reviews: reviews.n,
    reviewers: reviews.who ? reviews.who.split(",").sort() : [],
    fixtures,
  };
}

/** How many matches an ambiguous prefix lists. */
export const PREFIX_MATCHES = 20;

/**
 * The fixture of a set an identity or any prefix of one names (pages and `fixtures check` show 12
 * characters): `one` when a single fixture's identity starts so, `many` with up to PREFIX_MATCHES of
 * them (and whether there are more) when several do, `none` otherwise. Hex in any letter case.
 */
export function resolveFixturePrefix(
  db: Db,
  setId: number,
  prefix: string,
):
  | { kind: "one"; identity: string }
  | { kind: "many"; identities: string[]; more: boolean }
  | { kind: "none" } {
  const p = prefix.toLowerCase();
  if (!/^[0-9a-f]{1,64}$/.test(p)) return { kind: "none" };
  // Identities are lowercase hex: those starting with p sort from p to just before p + "g".
  const ids = db.sqlite
    .prepare(
      "SELECT identity FROM fixtures WHERE set_id = ? AND identity >= ? AND identity < ? ORDER BY identity LIMIT ?",
    )
    .pluck()
    .all(setId, p, `${p}g`, PREFIX_MATCHES + 1) as string[];
  if (ids.length === 0) return { kind: "none" };
  if (ids.length === 1) return { kind: "one", identity: ids[0] };
  return { kind: "many", identities: ids.slice(0, PREFIX_MATCHES), more: ids.length > PREFIX_MATCHES };
}
