import { hostname } from "node:os";
import type { BatchEnd, IngestSummary } from "../../lib/ingest/pipeline";
import type { Db } from "../client";
import { writeSync } from "../write";

/** An ingest in another process on another host counts as interrupted once it wrote nothing for this long. */
export const STALE_HEARTBEAT_MINUTES = 15;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Marks `running` ingests whose process is gone as interrupted: on this host, when its pid is not
 * alive (a pid reused since is taken for the ingest, until that process ends too); on another host
 * (a database on a shared disk), when it wrote no batch for STALE_HEARTBEAT_MINUTES. Run by every
 * ingest as it starts, and by `assumeprobe setup` (so by `npm start`). Returns how many it marked.
 */
export function markInterruptedIngests(db: Db): number {
  const running = db.sqlite
    .prepare(
      `SELECT id, pid, host, heartbeat_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-${STALE_HEARTBEAT_MINUTES} minutes') AS stale
       FROM ingest_batches WHERE status = 'running'`,
    )
    .all() as { id: number; pid: number | null; host: string | null; stale: number | null }[];
  const here = hostname();
  const dead = running.filter((r) => {
    if (r.pid === null || r.host === null) return true; // written before ingests recorded their process
    if (r.host === here) return !alive(r.pid);
    return r.stale === 1;
  });
  if (dead.length === 0) return 0;
  const mark = db.sqlite.prepare(
    `UPDATE ingest_batches SET status = 'interrupted', error = ?, finished_at = strftime('%Y-%m-%dT%H:%M:%fZ','now')
     WHERE id = ? AND status = 'running'`,
  );
  return writeSync(db, () => {
    let n = 0;
    for (const r of dead) {
      const who = r.pid === null ? "its process" : `its process (pid ${r.pid} on ${r.host})`;
      n += mark.run(`${who} ended before it finished; the batches it wrote were kept`, r.id).changes;
    }
    return n;
  });
}

/** Records a new ingest as running in this process (after marking dead ones interrupted). */
export function beginIngestBatch(db: Db, origin: string, files: string[]): number {
  markInterruptedIngests(db);
  const insert = db.sqlite
    .prepare(
      `INSERT INTO ingest_batches(origin, files, pid, host, heartbeat_at)
       VALUES (?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ','now')) RETURNING id`,
    )
    .pluck();
  return writeSync(db, () => insert.get(origin, JSON.stringify(files), process.pid, hostname()) as number);
}

/**
 * Settles an ingest: the rejected records of each source that sent no good record to a run go to
 * the run its records default to when that run exists (else they stay with the ingest alone), then
 * its counts, runs, unreadable files, status and error are stored.
 */
export function finishIngestBatch(db: Db, batchId: number, summary: IngestSummary, end: BatchEnd): void {
  const s = db.sqlite;
  const runId = s.prepare("SELECT id FROM runs WHERE name = ?").pluck();
  const finish = s.prepare(
    `UPDATE ingest_batches SET status = ?, records = ?, ingested = ?, duplicates = ?, rejected = ?,
       runs = ?, unreadable = ?, error = ?, finished_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?`,
  );
  writeSync(db, () => {
    const touched = new Set<number>();
    const seen = new Set<string>();
    for (const src of end.sources) {
      if (seen.has(src.file)) continue;
      seen.add(src.file);
      const id = runId.get(src.defaultRun) as number | undefined;
      if (id !== undefined && claimRunlessErrors(db, batchId, src.file, id) > 0) touched.add(id);
    }
    for (const id of touched) recountRejected(db, id);
    finish.run(
      end.status,
      summary.records,
      summary.ingested,
      summary.duplicates,
      summary.rejected,
      JSON.stringify(summary.runs),
      summary.unreadable ? JSON.stringify(summary.unreadable) : null,
      end.error ?? null,
      batchId,
    );
  });
}

/**
 * Moves the run-less rejected records of one file of an ingest to a run (merged with that run's
 * own record of the same line and content, if any). Call inside a write transaction.
 */
export function claimRunlessErrors(db: Db, batchId: number, file: string, runId: number): number {
  const s = db.sqlite;
  const moved = s
    .prepare(
      `INSERT INTO ingest_errors(run_id, batch_id, file, source, line, reason, raw, hash)
       SELECT ?, batch_id, file, source, line, reason, raw, hash FROM ingest_errors
       WHERE batch_id = ? AND file = ? AND run_id IS NULL
       ON CONFLICT(run_id, source, line, hash) DO UPDATE SET batch_id = excluded.batch_id, reason = excluded.reason, file = excluded.file`,
    )
    .run(runId, batchId, file).changes;
  if (moved > 0) {
    // The ingests that listed the run-less records list the run's records instead.
    s.prepare(
      `INSERT OR IGNORE INTO ingest_error_batches(batch_id, error_id, file, line, reason)
       SELECT l.batch_id, n.id, l.file, l.line, l.reason
       FROM ingest_errors o JOIN ingest_error_batches l ON l.error_id = o.id
       JOIN ingest_errors n ON n.run_id = ? AND n.source = o.source AND n.line = o.line AND n.hash = o.hash
       WHERE o.batch_id = ? AND o.file = ? AND o.run_id IS NULL`,
    ).run(runId, batchId, file);
    s.prepare("DELETE FROM ingest_errors WHERE batch_id = ? AND file = ? AND run_id IS NULL").run(
      batchId,
      file,
    );
  }
  return moved;
}

export function recountRejected(db: Db, runId: number): void {
  db.sqlite
    .prepare(
      "UPDATE runs SET rejected_count = (SELECT count(*) FROM ingest_errors WHERE run_id = ?) WHERE id = ?",
    )
    .run(runId, runId);
}

/** Marks an ingest failed when whatever ran it could not settle it (it stays as it was otherwise). */
export function failIngestBatch(db: Db, batchId: number, error: string): void {
  const mark = db.sqlite.prepare(
    `UPDATE ingest_batches SET status = 'failed', error = coalesce(error, ?),
       finished_at = coalesce(finished_at, strftime('%Y-%m-%dT%H:%M:%fZ','now')) WHERE id = ? AND status = 'running'`,
  );
  writeSync(db, () => mark.run(error, batchId));
}
