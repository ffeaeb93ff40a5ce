import { UserError } from "../../lib/errors";
/**
 * The mutation check on the stored configuration (DESIGN.md, "Tuning the scorer"): for each ask
 * term of a probe, its clarify tool, and each lexicon term, the fixtures (every set) that pass now
 * and fail without it; a term no fixture needs is dead. Each fixture is scored once through
 * FixtureScoring (the one fixture scorer) and read once for the terms it needs
 * (lib/tuning/mutation.ts); nothing is saved.
 */
import { configurationOf } from "../../lib/fixtures/configuration";
import type { NormalizedResponse } from "../../lib/probe/response";
import type { Label } from "../../lib/probe/schema";
import {
  lexiconMutants,
  type Mutant,
  mutationCheck,
  probeMutants,
  termsItNeeds,
} from "../../lib/tuning/mutation";
import type { Db } from "../client";
import { FixtureScoring } from "./fixtureScoring";
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

export class MutationError extends UserError<"mutation"> {
  constructor(message: string) {
    super("mutation", message);
  }
}

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

/**
 * Each fixture is read once: its passing now, and the terms of its field it needs (termsItNeeds,
 * with its world's probe compiled once); the clarify tool, when there is one, by scoring with the
 * probe compiled once without it. Never a compile per term.
 */
function check(
  db: Db,
  rows: Omit<MutationFixtureRow, "passes">[],
  mutants: Mutant[],
  subject: { probe: string } | { lexicon: true },
) {
  const now = new FixtureScoring(db);
  const clarify = mutants.find((m) => m.kind === "clarify_tool");
  const withoutClarify =
    clarify && "probe" in subject
      ? new FixtureScoring(db, {
          configurations: new Map([
            [subject.probe, { ...now.probe(subject.probe).config, clarify_tool: null }],
          ]),
        })
      : null;
  const fixtures: (MutationFixtureRow & { response_: NormalizedResponse })[] = rows.map((r) => {
    const response = JSON.parse(r.response) as NormalizedResponse;
    return {
      ...r,
      response_: response,
      passes: now.scorer(r.world)(response, r.field).label === r.expected,
    };
  });
  const results = mutationCheck(mutants, fixtures, (f) => {
    const needs = termsItNeeds(now.compiled(f.world), f.response_, f.field);
    const out: Mutant[] =
      "probe" in subject
        ? needs.probe.map((term) => ({ kind: "probe_term", probe: subject.probe, field: f.field, term }))
        : needs.lexicon.map((term) => ({ kind: "lexicon_term", field: f.field, term }));
    if (
      clarify &&
      withoutClarify &&
      withoutClarify.scorer(f.world)(f.response_, f.field).label !== f.expected
    )
      out.push(clarify);
    return out;
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
  const mutants = probeMutants({ id, ask_terms: config.ask_terms, clarify_tool: config.clarify_tool });
  const r = check(db, fixtureRows(db, { probe: id }), mutants, { probe: id });
  return { subject: { kind: "probe", probe: id, version: stored.version }, ...r };
}

/** The mutation check of every lexicon term. */
export function lexiconMutationCheck(db: Db): MutationReport {
  const lexicon = currentLexicon(db);
  const mutants = lexiconMutants(lexicon.entries);
  const fields = [...new Set(mutants.map((m) => (m.kind === "lexicon_term" ? m.field : "")))];
  const r = check(db, fixtureRows(db, { fields }), mutants, { lexicon: true });
  return { subject: { kind: "lexicon", version: lexicon.version }, ...r };
}
