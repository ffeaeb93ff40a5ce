import type { SourceFailure } from "../../lib/ingest/pipeline";
import type { Db } from "../client";
import { RAW_PREVIEW, type RunErrorRow } from "./runErrors";

export interface IngestRow {
  id: number;
  origin: string;
  files: string[];
  /** running, done, failed or interrupted. */
  status: string;
  records: number;
  ingested: number;
  duplicates: number;
  rejected: number;
  startedAt: string;
  finishedAt: string | null;
  runs: { name: string; ingested: number }[];
  unreadable: SourceFailure[];
  error: string | null;
  pid: number | null;
  host: string | null;
  /** Rejected records stored with this ingest (a later ingest reporting the same record takes it). */
  storedErrors: number;
}

interface RawRow extends Omit<IngestRow, "files" | "runs" | "unreadable"> {
  files: string;
  runs: string | null;
  unreadable: string | null;
}

const SELECT = `SELECT id, origin, files, status, records, ingested, duplicates, rejected, started_at AS startedAt,
  finished_at AS finishedAt, runs, unreadable, error, pid, host,
  (SELECT count(*) FROM ingest_error_batches l WHERE l.batch_id = b.id) AS storedErrors FROM ingest_batches b`;

function parse<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

const toRow = (r: RawRow): IngestRow => ({
  ...r,
  files: parse(r.files, []),
  runs: parse(r.runs, []),
  unreadable: parse(r.unreadable, []),
});

/** Recent ingests, newest first: a keyset page of `limit` before the id `before`, and whether more are older. */
export function listIngests(
  db: Db,
  opts: { before?: number; limit: number },
): { rows: IngestRow[]; more: boolean } {
  const rows = db.sqlite
    .prepare(`${SELECT} WHERE id < ? ORDER BY id DESC LIMIT ?`)
    .all(opts.before ?? Number.MAX_SAFE_INTEGER, opts.limit + 1) as RawRow[];
  return { rows: rows.slice(0, opts.limit).map(toRow), more: rows.length > opts.limit };
}

export function getIngest(db: Db, id: number): IngestRow | undefined {
  const r = db.sqlite.prepare(`${SELECT} WHERE id = ?`).get(id) as RawRow | undefined;
  return r ? toRow(r) : undefined;
}

export interface IngestErrorRow extends RunErrorRow {
  /** The run it counts against, or null (rejected records alone never create a run). */
  run: string | null;
}

/**
 * An ingest's rejected records in reading order (file, line), as that ingest read them (a later
 * ingest of the same lines lists them again, and this one keeps them), a keyset page after `after`.
 */
export function listIngestErrors(
  db: Db,
  batchId: number,
  opts: { after?: { file: string; line: number; id: number }; limit: number },
): { rows: IngestErrorRow[]; more: boolean } {
  const a = opts.after ?? { file: "", line: -1, id: -1 };
  const rows = db.sqlite
    .prepare(
      `SELECT e.id, l.file, l.line, l.reason, substr(e.raw, 1, ${RAW_PREVIEW}) AS raw, length(e.raw) > ${RAW_PREVIEW} AS cut,
         r.name AS run
       FROM ingest_error_batches l JOIN ingest_errors e ON e.id = l.error_id LEFT JOIN runs r ON r.id = e.run_id
       WHERE l.batch_id = ? AND (l.file, l.line, l.error_id) > (?, ?, ?)
       ORDER BY l.file, l.line, l.error_id LIMIT ?`,
    )
    .all(batchId, a.file, a.line, a.id, opts.limit + 1) as IngestErrorRow[];
  return { rows: rows.slice(0, opts.limit), more: rows.length > opts.limit };
}
