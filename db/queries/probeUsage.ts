/**
 * How many traces each probe scored, per run, read from the kept counts (run_counts, the
 * `p:<probe>` tag): never a scan of traces.
 */
import { tag } from "../../lib/ingest/tags";
import type { Db } from "../client";

export interface ProbeRunUsage {
  run: string;
  traces: number;
}

/** Runs that hold traces of a probe, newest first. */
export function probeRuns(db: Db, probeId: string, limit = 50): ProbeRunUsage[] {
  return db.sqlite
    .prepare(
      `SELECT r.name AS run, rc.n AS traces FROM run_counts rc
       JOIN runs r ON r.id = rc.run_id
       WHERE rc.probe_id = ? AND rc.tag_id = (SELECT id FROM tag_names WHERE name = ?) AND rc.n > 0
       ORDER BY r.id DESC LIMIT ?`,
    )
    .all(probeId, tag.probe(probeId), limit) as ProbeRunUsage[];
}

/** Traces per probe over every run. */
export function tracesPerProbe(db: Db): Map<string, number> {
  const rows = db.sqlite
    .prepare(
      `SELECT rc.probe_id AS probe, sum(rc.n) AS n FROM run_counts rc
       JOIN tag_names tn ON tn.id = rc.tag_id AND tn.name = ? || rc.probe_id
       GROUP BY rc.probe_id`,
    )
    .all(tag.probe("")) as { probe: string; n: number }[];
  return new Map(rows.map((r) => [r.probe, r.n]));
}

/** The origin of each probe's first version (builtin, file:…, inline:…, when2call). */
export function probeOrigins(db: Db): Map<string, string> {
  const rows = db.sqlite
    .prepare("SELECT probe_id AS id, origin FROM probe_versions WHERE version = 1")
    .all() as { id: string; origin: string }[];
  return new Map(rows.map((r) => [r.id, r.origin]));
}

/** The runs that hold traces of each probe (from the kept counts), for grouping probes by run. */
export function runsPerProbe(db: Db): Map<string, string[]> {
  const rows = db.sqlite
    .prepare(
      `SELECT DISTINCT rc.probe_id AS probe, r.name AS run FROM run_counts rc JOIN runs r ON r.id = rc.run_id
       WHERE rc.n > 0`,
    )
    .all() as { probe: string; run: string }[];
  const out = new Map<string, string[]>();
  for (const r of rows) {
    const list = out.get(r.probe);
    if (list) list.push(r.run);
    else out.set(r.probe, [r.run]);
  }
  return out;
}
