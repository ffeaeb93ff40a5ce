/**
 * What a suggestion can learn from, for the pages' scope chooser: runs holding human labels (how
 * many fields, from the kept counts of the any-field `hl:*=LABEL` tags) and fixture sets (how
 * many fixtures), optionally for one probe.
 */
import { ANY_FIELD, tag } from "../../lib/ingest/tags";
import type { Db } from "../client";

export interface LabelledRun {
  name: string;
  /** Fields with a human label (of the probe, when one is given). */
  labelled: number;
}

export interface LabelledSet {
  name: string;
  fixtures: number;
}

/** Runs with human labels, newest first, with how many fields carry one (per-field `hl:` tags). */
export function labelledRuns(db: Db, probe?: string): LabelledRun[] {
  const any = tag.humanLabel(ANY_FIELD, "");
  return db.sqlite
    .prepare(
      `SELECT r.name, sum(rc.n) AS labelled FROM run_counts rc JOIN runs r ON r.id = rc.run_id
       JOIN tag_names tn ON tn.id = rc.tag_id
       WHERE tn.name >= 'hl:' AND tn.name < 'hl;' AND substr(tn.name, 1, ?) <> ? AND rc.n > 0
         ${probe !== undefined ? "AND rc.probe_id = ?" : ""}
       GROUP BY r.id ORDER BY r.id DESC`,
    )
    .all(...[any.length, any, ...(probe !== undefined ? [probe] : [])]) as LabelledRun[];
}

export function labelledSets(db: Db, probe?: string): LabelledSet[] {
  return db.sqlite
    .prepare(
      `SELECT s.name, count(f.id) AS fixtures FROM fixture_sets s JOIN fixtures f ON f.set_id = s.id
       ${probe !== undefined ? "WHERE f.probe_id = ?" : ""} GROUP BY s.id ORDER BY s.builtin DESC, s.name`,
    )
    .all(...(probe !== undefined ? [probe] : [])) as LabelledSet[];
}
