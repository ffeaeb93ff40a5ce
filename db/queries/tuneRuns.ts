/**
 * Which runs a saved change applies to (what `--rescore` and the pages' re-score queue), from the
 * kept counts: a probe's runs, or the runs that probe a field of a name the lexicon changed.
 */

import { tag } from "../../lib/ingest/tags";
import { LABELS } from "../../lib/probe/schema";
import type { Db } from "../client";

export interface RunRef {
  id: number;
  name: string;
  traces: number;
}

/** Runs holding traces of the probe, oldest first. */
export function runsOfProbe(db: Db, probeId: string): RunRef[] {
  return db.sqlite
    .prepare(
      `SELECT r.id, r.name, rc.n AS traces FROM run_counts rc JOIN runs r ON r.id = rc.run_id
       WHERE rc.probe_id = ? AND rc.tag_id = (SELECT id FROM tag_names WHERE name = ?) AND rc.n > 0
       ORDER BY r.id`,
    )
    .all(probeId, tag.probe(probeId)) as RunRef[];
}

/** Runs whose traces probe a field of one of these names (any label of it), oldest first. */
export function runsProbingFields(db: Db, fields: readonly string[]): RunRef[] {
  const names = fields.flatMap((f) => LABELS.map((l) => tag.label(f, l)));
  if (names.length === 0) return [];
  return db.sqlite
    .prepare(
      `SELECT r.id, r.name, r.trace_count AS traces FROM runs r WHERE r.id IN (
         SELECT rc.run_id FROM run_counts rc JOIN tag_names n ON n.id = rc.tag_id
         WHERE n.name IN (SELECT value FROM json_each(?)) AND rc.n > 0)
       ORDER BY r.id`,
    )
    .all(JSON.stringify(names)) as RunRef[];
}

/** A run by name, for the command line and the pages. */
export function runByName(db: Db, name: string): RunRef | undefined {
  return db.sqlite.prepare("SELECT id, name, trace_count AS traces FROM runs WHERE name = ?").get(name) as
    | RunRef
    | undefined;
}

/** The names of fields stored traces probe (from their label tags), sorted; at most `limit`. */
export function probedFieldNames(db: Db, limit = 1000): string[] {
  return db.sqlite
    .prepare(
      `SELECT DISTINCT substr(name, 3, instr(name, '=') - 3) AS field FROM tag_names
       WHERE name LIKE 'l:%=%' AND name NOT LIKE 'l:*=%' ORDER BY field LIMIT ?`,
    )
    .pluck()
    .all(limit) as string[];
}
