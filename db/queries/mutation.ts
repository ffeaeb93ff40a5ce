/**
 * The mutation check on the stored configuration (DESIGN.md, "Tuning the scorer"): for each ask
 * term of a probe, its clarify tool, and each lexicon term, the fixtures (every set) that pass now
 * and fail without it; a term no fixture needs is dead. Each mutant is scored through
 * FixtureScoring with a draft (the one fixture scorer), nothing is saved.
 */
import { configurationOf, type ProbeConfiguration } from "../../lib/fixtures/configuration";
import { draftLexicon } from "../../lib/lexicon/draft";
import type { LexiconEntry } from "../../lib/lexicon/lexicon";
import type { NormalizedResponse } from "../../lib/probe/response";
import type { Label } from "../../lib/probe/schema";
import { lexiconMutants, type Mutant, mutationCheck, probeMutants } from "../../lib/tuning/mutation";
import type { Db } from "../client";
import { FixtureScoring, type ScoringDraft } from "./fixtureScoring";
import { currentLexicon } from "./lexicon";
import { getProbe } from "./probes";

export interface MutationFixtureRow {
  set: string;
  identity: string;
  probe: string;
  field: string;
  expected: Label;
  world: string;
  response: string;
  passes: boolean;
}

export interface MutantResult {
  mutant: Mutant;
  /** Fixtures that pass now and fail without it. */
  needed: { set: string; identity: string; probe: string; field: string; expected: Label }[];
  dead: boolean;
}

export interface MutationReport {
  subject: { kind: "probe"; probe: string; version: number } | { kind: "lexicon"; version: number };
  /** Fixtures the check scored (those the configuration can touch), and how many pass now. */
  fixtures: number;
  passing: number;
  results: MutantResult[];
}

export class MutationError extends Error {}

function fixtureRows(
  db: Db,
  where: { probe: string } | { fields: string[] },
): Omit<MutationFixtureRow, "passes">[] {
  const columns = `s.name AS "set", f.identity, f.probe_id AS probe, f.field, f.expected, f.world_digest AS world, f.response`;
  if ("probe" in where)
    return db.sqlite
      .prepare(
        `SELECT ${columns} FROM fixtures f JOIN fixture_sets s ON s.id = f.set_id WHERE f.probe_id = ? ORDER BY f.id`,
      )
      .all(where.probe) as Omit<MutationFixtureRow, "passes">[];
  return db.sqlite
    .prepare(
      `SELECT ${columns} FROM fixtures f JOIN fixture_sets s ON s.id = f.set_id
       WHERE f.field IN (SELECT value FROM json_each(?)) ORDER BY f.id`,
    )
    .all(JSON.stringify(where.fields)) as Omit<MutationFixtureRow, "passes">[];
}

function check(
  db: Db,
  rows: Omit<MutationFixtureRow, "passes">[],
  mutants: Mutant[],
  draftFor: (m: Mutant) => ScoringDraft,
) {
  const now = new FixtureScoring(db);
  const responses = new Map<string, NormalizedResponse>();
  const response = (r: { identity: string; set: string; response: string }) => {
    const key = `${r.set}\u0000${r.identity}`;
    let v = responses.get(key);
    if (!v) {
      v = JSON.parse(r.response) as NormalizedResponse;
      responses.set(key, v);
    }
    return v;
  };
  const fixtures: MutationFixtureRow[] = rows.map((r) => ({
    ...r,
    passes: now.scorer(r.world)(response(r), r.field).label === r.expected,
  }));
  const scorings = new Map<Mutant, FixtureScoring>();
  const results = mutationCheck(mutants, fixtures, (f, m) => {
    let s = scorings.get(m);
    if (!s) {
      s = new FixtureScoring(db, draftFor(m));
      scorings.set(m, s);
    }
    return s.scorer(f.world)(response(f), f.field).label === f.expected;
  });
  return {
    fixtures: fixtures.length,
    passing: fixtures.filter((f) => f.passes).length,
    results: results.map((r) => ({
      mutant: r.mutant,
      dead: r.dead,
      needed: r.needed.map((f) => ({
        set: f.set,
        identity: f.identity,
        probe: f.probe,
        field: f.field,
        expected: f.expected,
      })),
    })),
  };
}

/** The mutation check of one probe's own terms and clarify tool. */
export function probeMutationCheck(db: Db, id: string): MutationReport {
  const stored = getProbe(db, id);
  if (!stored) throw new MutationError(`unknown probe: ${id}`);
  const config = configurationOf(stored.probe);
  const without = (m: Mutant): ProbeConfiguration => {
    if (m.kind === "clarify_tool") return { ...config, clarify_tool: null };
    if (m.kind !== "probe_term") return config;
    const terms = (config.ask_terms[m.field] ?? []).filter((t) => t !== m.term);
    return { ...config, ask_terms: { ...config.ask_terms, [m.field]: terms } };
  };
  const mutants = probeMutants({ id, ask_terms: config.ask_terms, clarify_tool: config.clarify_tool });
  const r = check(db, fixtureRows(db, { probe: id }), mutants, (m) => ({
    configurations: new Map([[id, without(m)]]),
  }));
  return { subject: { kind: "probe", probe: id, version: stored.version }, ...r };
}

/** The mutation check of every lexicon term. */
export function lexiconMutationCheck(db: Db): MutationReport {
  const lexicon = currentLexicon(db);
  const entries = lexicon.entries;
  const without = (m: Mutant): Record<string, LexiconEntry> => {
    if (m.kind !== "lexicon_term") return { ...entries };
    const e = entries[m.field];
    return { ...entries, [m.field]: { ...e, terms: e.terms.filter((t) => t !== m.term) } };
  };
  const mutants = lexiconMutants(entries);
  const fields = [...new Set(mutants.map((m) => (m.kind === "lexicon_term" ? m.field : "")))];
  const r = check(db, fixtureRows(db, { fields }), mutants, (m) => ({ lexicon: draftLexicon(without(m)) }));
  return { subject: { kind: "lexicon", version: lexicon.version }, ...r };
}
