import type { Db } from "../client";

export interface RunErrorRow {
  id: number;
  file: string;
  line: number;
  reason: string;
  raw: string;
}

/** A run's rejected records, by file and line. */
export function listRunErrors(db: Db, runId: number, limit: number): RunErrorRow[] {
  return db.sqlite
    .prepare(
      "SELECT id, file, line, reason, raw FROM ingest_errors WHERE run_id = ? ORDER BY file, line LIMIT ?",
    )
    .all(runId, limit) as RunErrorRow[];
}
