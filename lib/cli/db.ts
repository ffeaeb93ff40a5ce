import { existsSync } from "node:fs";
import { type Db, databasePath, getDb } from "../../db/client";
import { getProbe, syncBuiltinProbes } from "../../db/queries/probes";
import type { ProbeLookup } from "../ingest/traceRecord";
import { builtinProbes } from "../probe/builtin";

/** The database, migrated, with the built-in probes in it. */
export function cliDb(): Db {
  const db = getDb();
  syncBuiltinProbes(db);
  return db;
}

/** Probes the CLI can name: stored ones when the database exists, else the built-in ones. */
export function cliProbeLookup(): ProbeLookup {
  const builtin = builtinProbes();
  if (!existsSync(databasePath())) return (id) => builtin.get(id);
  const db = cliDb();
  return (id) => getProbe(db, id)?.probe ?? builtin.get(id);
}
