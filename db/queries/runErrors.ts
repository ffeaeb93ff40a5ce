import type { Db } from "../client";

export interface RunErrorRow {
  id: number;
  file: string;
  line: number;
  reason: string;
  /** The start of the record's text (RAW_PREVIEW characters). */
  raw: string;
  /** The text goes on past `raw`. */
  cut: number;
}

export const RAW_PREVIEW = 400;

/** A run's rejected records, by file and line, each with the start of its text (stored up to 64 KiB). */
export function listRunErrors(db: Db, runId: number, limit: number): RunErrorRow[] {
  return db.sqlite
    .prepare(
      `SELECT id, file, line, reason, substr(raw, 1, ${RAW_PREVIEW}) AS raw, length(raw) > ${RAW_PREVIEW} AS cut
       FROM ingest_errors WHERE run_id = ? ORDER BY file, line LIMIT ?`,
    )
    .all(runId, limit) as RunErrorRow[];
}
