/**
 * Packing the originals of traces stored before blocks existed (db/queries/originals.ts): a chunk
 * of rows at a time, in id order, each chunk in its own write transaction, so a kill loses at most
 * the chunk under way and the next run goes on from the rows still inline. Readers read both kinds
 * of row through original_of() while it runs.
 */
import { statfsSync, statSync } from "node:fs";
import { packOriginals } from "../../lib/storage/originalBlocks";
import type { Db } from "../client";
import { writeSync } from "../write";
import { blockStatements, writeBlocks } from "./originals";

export interface PackReport {
  /** Traces in the database before and after (packing never adds or drops one). */
  tracesBefore: number;
  tracesAfter: number;
  /** Rows packed by this call, and rows still inline after it (0 once done). */
  packed: number;
  inline: number;
}

/** Traces whose original is still inline. */
export function inlineOriginals(db: Db): number {
  return db.sqlite
    .prepare("SELECT count(*) FROM traces WHERE original_block IS NULL")
    .pluck()
    .get() as number;
}

/** Packs every inline original, `chunk` rows per transaction; `onChunk` hears the running total. */
export function packStoredOriginals(
  db: Db,
  o: { chunk?: number; onChunk?: (packed: number) => void } = {},
): PackReport {
  const chunk = o.chunk ?? 2000;
  const count = db.sqlite.prepare("SELECT count(*) FROM traces").pluck();
  const tracesBefore = count.get() as number;
  const next = db.sqlite.prepare(
    "SELECT id, run_id AS runId, original FROM traces WHERE id > ? AND original_block IS NULL ORDER BY id LIMIT ?",
  );
  const update = db.sqlite.prepare(
    "UPDATE traces SET original = X'', original_block = ?, original_at = ?, original_len = ? WHERE id = ? AND original_block IS NULL",
  );
  const bq = blockStatements(db.sqlite);
  let after = 0;
  let packed = 0;
  for (;;) {
    const done = writeSync(db, () => {
      const rows = next.all(after, chunk) as { id: number; runId: number; original: string | Buffer }[];
      if (rows.length === 0) return 0;
      const blocks = writeBlocks(
        bq,
        packOriginals(
          rows.map((r) => r.original),
          rows.map((r) => String(r.runId)),
        ),
      );
      for (let i = 0; i < rows.length; i++) {
        const [block, at, len] = blocks.values(i, rows[i].runId);
        if (update.run(block, at, len, rows[i].id).changes > 0) blocks.keep(i);
      }
      blocks.dropUnused();
      after = rows[rows.length - 1].id;
      return rows.length;
    });
    if (done === 0) break;
    packed += done;
    o.onChunk?.(packed);
  }
  return { tracesBefore, tracesAfter: count.get() as number, packed, inline: inlineOriginals(db) };
}

export interface FileSizes {
  db: number;
  wal: number;
  shm: number;
}

const sizeOf = (p: string) => {
  try {
    return statSync(p).size;
  } catch {
    return 0;
  }
};

/** The database's files and their sizes in bytes. */
export function fileSizes(db: Db): FileSizes {
  return { db: sizeOf(db.path), wal: sizeOf(`${db.path}-wal`), shm: sizeOf(`${db.path}-shm`) };
}

/** VACUUM needs room for a full copy of the database beside it. */
export class NoRoomError extends Error {}

/**
 * Shrinks the database file to what it holds: a checkpoint, then VACUUM (it rewrites every table
 * and index into a new file, so it frees the pages packing emptied and defragments what is left;
 * an incremental vacuum would only return free pages, and needs auto_vacuum set when the database
 * was made), then a checkpoint that truncates the write-ahead log. It takes the write lock for its
 * whole length and needs free disk of about the database's size.
 */
export function compactDatabase(db: Db): { before: FileSizes; after: FileSizes } {
  db.sqlite.pragma("wal_checkpoint(TRUNCATE)");
  const before = fileSizes(db);
  const fs = statfsSync(db.path);
  const free = fs.bavail * fs.bsize;
  if (free < before.db)
    throw new NoRoomError(
      `compacting needs free disk of about the database's size (${before.db.toLocaleString("en-US")} bytes); ${free.toLocaleString("en-US")} are free`,
    );
  db.sqlite.exec("VACUUM");
  db.sqlite.pragma("wal_checkpoint(TRUNCATE)");
  return { before, after: fileSizes(db) };
}
