import { existsSync } from "node:fs";
import { type Db, databasePath, getDb } from "../../db/client";
import { currentLexicon } from "../../db/queries/lexicon";
import { getProbe, syncBuiltinProbes } from "../../db/queries/probes";
import type { ProbeLookup } from "../ingest/traceRecord";
import { EMPTY_LEXICON, type Lexicon } from "../lexicon/lexicon";
import { builtinProbes } from "../probe/builtin";

/** The database, migrated, with the built-in probes in it. */
export function cliDb(): Db {
  const db = getDb();
  syncBuiltinProbes(db);
  return db;
}

/** What the CLI scores with: probes it can name and the shared lexicon. */
export interface CliScoring {
  lookup: ProbeLookup;
  lexicon: Lexicon;
}

/**
 * Stored probes and the stored lexicon when the database exists, else (and with `builtin`) the
 * built-in probes and no lexicon: the built-in configuration, for parity checks.
 */
export function cliScoring(o: { builtin?: boolean } = {}): CliScoring {
  const builtin = builtinProbes();
  if (o.builtin || !existsSync(databasePath()))
    return { lookup: (id) => builtin.get(id), lexicon: EMPTY_LEXICON };
  const db = cliDb();
  return { lookup: (id) => getProbe(db, id)?.probe ?? builtin.get(id), lexicon: currentLexicon(db) };
}

/** Probes the CLI can name: stored ones when the database exists, else the built-in ones. */
export function cliProbeLookup(): ProbeLookup {
  return cliScoring().lookup;
}
