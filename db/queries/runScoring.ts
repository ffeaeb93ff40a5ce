import type { Db } from "../client";

/** Which probe version and lexicon version scored a probe's traces in a run. */
export interface RunScoring {
  probeId: string;
  probeVersion: number;
  /** 0 until the lexicon exists. */
  lexiconVersion: number;
}

/** The versions that scored each probe's traces of a run (a probe whose traces came with several versions lists each). */
export function runScoring(db: Db, runId: number): RunScoring[] {
  return db.sqlite
    .prepare(
      `SELECT probe_id AS probeId, probe_version AS probeVersion, lexicon_version AS lexiconVersion
       FROM run_scoring WHERE run_id = ? ORDER BY probe_id, probe_version, lexicon_version`,
    )
    .all(runId) as RunScoring[];
}

/**
 * Records that one configuration now scored every trace of a probe in a run (a re-score): it
 * replaces the probe's rows. Call inside the writing transaction. Ingest needs no call: a trigger
 * on `traces` records each new trace's probe version.
 */
export function recordRunScoring(db: Db, runId: number, s: RunScoring): void {
  recordRunScorings(db, runId, s.probeId, [s]);
}

/** recordRunScoring with several versions for one probe (traces of several worlds). */
export function recordRunScorings(
  db: Db,
  runId: number,
  probeId: string,
  versions: { probeVersion: number; lexiconVersion: number }[],
): void {
  db.sqlite.prepare("DELETE FROM run_scoring WHERE run_id = ? AND probe_id = ?").run(runId, probeId);
  const insert = db.sqlite.prepare(
    "INSERT OR IGNORE INTO run_scoring(run_id, probe_id, probe_version, lexicon_version) VALUES (?, ?, ?, ?)",
  );
  for (const v of versions) insert.run(runId, probeId, v.probeVersion, v.lexiconVersion);
}
