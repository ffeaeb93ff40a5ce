/**
 * Original records in the database: packed into compressed blocks (lib/storage/originalBlocks.ts),
 * or inline in `traces.original` for rows stored before packing. Every reader goes through the SQL
 * function `original_of(...)` (ORIGINAL_OF), registered on each connection by openDb, so a query
 * reads old and new rows alike, also while `assumeprobe db pack` converts them.
 */
import type Database from "better-sqlite3";
import {
  CODEC_DEFLATE_RAW,
  inflateBlock,
  type Original,
  type PackedOriginals,
  packOriginals,
  sliceOriginal,
} from "../../lib/storage/originalBlocks";
import { forgetOnRollback } from "../write";

/**
 * The original of a `traces` row (`t`: the table's alias with its dot, or ""), text or bytes: the
 * inline column, else the slice of a block already inflated on this connection, else the block
 * read and inflated. COALESCE stops at its first value that is not NULL, so a block's compressed
 * body is read from the table only when it is not in the connection's cache.
 */
export const originalOf = (t = "") =>
  `coalesce(CASE WHEN ${t}original_block IS NULL THEN ${t}original END,
    original_hit(${t}original_block, ${t}original_at, ${t}original_len),
    original_of(${t}original_block,
      (SELECT codec FROM original_blocks WHERE id = ${t}original_block),
      (SELECT body FROM original_blocks WHERE id = ${t}original_block), ${t}original_at, ${t}original_len))`;

/** The same, for `traces` unaliased: `SELECT ${ORIGINAL_OF} AS original FROM traces`. */
export const ORIGINAL_OF = originalOf();

/** The original's length in bytes, without reading it. */
export const ORIGINAL_BYTES = "coalesce(original_len, length(CAST(original AS BLOB)))";

/** Inflated blocks kept per connection: a scan in id order reads each block once. */
const CACHED_BLOCKS = 4;

/**
 * Each connection's inflated blocks, by block id. Block ids are never reused (AUTOINCREMENT), so an
 * id names the same bytes for as long as it exists; a rolled-back write forgets the cache, since a
 * block id it created may be created again.
 */
const caches = new WeakMap<Database.Database, Map<number, Buffer>>();
forgetOnRollback((db) => caches.get(db.sqlite)?.clear());

/** Registers original_hit() and original_of() on a connection. */
export function registerOriginalFunctions(sqlite: Database.Database): void {
  const cache = new Map<number, Buffer>();
  caches.set(sqlite, cache);
  sqlite.function(
    "original_hit",
    { deterministic: false },
    (block: unknown, at: unknown, len: unknown): string | Buffer | null => {
      if (block === null) return null;
      const bytes = cache.get(Number(block));
      return bytes === undefined ? null : sliceOriginal(bytes, Number(at), Number(len));
    },
  );
  sqlite.function(
    "original_of",
    { deterministic: false },
    (block: unknown, codec: unknown, body: unknown, at: unknown, len: unknown): string | Buffer => {
      if (!Buffer.isBuffer(body)) throw new Error(`original block ${String(block)} is missing`);
      const bytes = inflateBlock(Number(codec), body);
      cache.set(Number(block), bytes);
      if (cache.size > CACHED_BLOCKS) cache.delete(cache.keys().next().value as number);
      return sliceOriginal(bytes, Number(at), Number(len));
    },
  );
}

/** Statements that write blocks, prepared once per connection. */
export function blockStatements(sqlite: Database.Database) {
  return {
    insert: sqlite.prepare("INSERT INTO original_blocks(run_id, codec, body) VALUES (?, ?, ?)"),
    remove: sqlite.prepare("DELETE FROM original_blocks WHERE id = ?"),
  };
}

/**
 * Writes packed blocks inside the caller's transaction, each when a row first needs it:
 * `values(i, runId)` gives original i's row values (block id, offset, length), `keep(i)` says a
 * row was stored with them, and `dropUnused()` deletes the blocks written for rows that were not
 * (duplicates), so a batch of duplicates stores nothing.
 */
export function writeBlocks(q: ReturnType<typeof blockStatements>, packed: PackedOriginals) {
  const ids = new Array<number>(packed.blocks.length).fill(0);
  const used = new Uint8Array(ids.length);
  return {
    /** Original i as it was packed (for a record turned down; `t.original` when it still holds it). */
    original: (t: { original: string | Buffer }, i: number): string | Buffer => {
      if (typeof t.original !== "string" || t.original !== "" || i < 0) return t.original;
      const r = packed.refs[i];
      return sliceOriginal(inflateBlock(CODEC_DEFLATE_RAW, packed.blocks[r.block]), r.at, r.len);
    },
    values: (i: number, runId: number): [number, number, number] => {
      const r = packed.refs[i];
      if (ids[r.block] === 0)
        ids[r.block] = Number(q.insert.run(runId, CODEC_DEFLATE_RAW, packed.blocks[r.block]).lastInsertRowid);
      return [ids[r.block], r.at, r.len];
    },
    keep: (i: number) => {
      used[packed.refs[i].block] = 1;
    },
    dropUnused: () => {
      for (let b = 0; b < ids.length; b++) if (ids[b] !== 0 && !used[b]) q.remove.run(ids[b]);
    },
  };
}

/** A batch's originals packed as the writer stores them: grouped by the run each trace names. */
export function packTraceOriginals(
  traces: readonly { original: Original; runName: string }[],
): PackedOriginals {
  return packOriginals(
    traces.map((t) => t.original),
    traces.map((t) => t.runName),
  );
}

export type { Original };
