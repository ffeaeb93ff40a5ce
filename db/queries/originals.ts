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

/** The original of a `traces` row (`t`: the table's alias with its dot, or ""), text or bytes. */
export const originalOf = (t = "") =>
  `original_of(${t}original, ${t}original_block,
    (SELECT codec FROM original_blocks WHERE id = ${t}original_block),
    (SELECT body FROM original_blocks WHERE id = ${t}original_block), ${t}original_at, ${t}original_len)`;

/** The same, for `traces` unaliased: `SELECT ${ORIGINAL_OF} AS original FROM traces`. */
export const ORIGINAL_OF = originalOf();

/** The original's length in bytes, without reading it. */
export const ORIGINAL_BYTES = "coalesce(original_len, length(CAST(original AS BLOB)))";

/** Inflated blocks kept per connection: a scan in id order reads each block once. */
const CACHED_BLOCKS = 4;

/** Registers original_of() on a connection; each connection keeps its own few inflated blocks. */
export function registerOriginalFunctions(sqlite: Database.Database): void {
  // Keyed by block id, checked against the compressed body: an id reused after a rollback or a
  // deleted block never returns another block's bytes.
  const cache = new Map<number, { body: Buffer; bytes: Buffer }>();
  const inflated = (id: number, codec: number, body: Buffer): Buffer => {
    const hit = cache.get(id);
    if (hit?.body.equals(body)) {
      cache.delete(id);
      cache.set(id, hit);
      return hit.bytes;
    }
    const bytes = inflateBlock(codec, body);
    cache.set(id, { body, bytes });
    if (cache.size > CACHED_BLOCKS) cache.delete(cache.keys().next().value as number);
    return bytes;
  };
  sqlite.function(
    "original_of",
    { deterministic: true },
    (original: unknown, block: unknown, codec: unknown, body: unknown, at: unknown, len: unknown) => {
      if (block === null) return original as string | Buffer;
      if (!Buffer.isBuffer(body)) throw new Error(`original block ${String(block)} is missing`);
      return sliceOriginal(inflated(Number(block), Number(codec), body), Number(at), Number(len));
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
