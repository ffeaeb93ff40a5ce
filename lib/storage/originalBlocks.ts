/**
 * How original records are stored: in blocks of about BLOCK_BYTES, each compressed with
 * deflate-raw (Node 20's zlib has no zstd). A block is its own dictionary: the records in it share
 * their keys and structure, so a block of generated traces packs to about 0.14 of its bytes where
 * one record alone packs to about 0.6, and one deflate call per block costs a few microseconds a
 * record where one per record costs about 35. A trace keeps (block, offset, length).
 *
 * Where consecutive traces come from one original (When2Call's four answers of a line, the spans
 * of one OTLP line, an Inspect sample's generations), its bytes are stored once and every trace
 * points at them.
 *
 * Byte for byte: a stored original is its bytes; read back, valid UTF-8 is text, anything else
 * stays bytes, the rule ingest uses for the inline `original` column.
 */
import { isUtf8 } from "node:buffer";
import { deflateRawSync, inflateRawSync } from "node:zlib";

/** Bytes of originals gathered before a block is compressed (measured: 64 KiB packs to 0.14). */
export const BLOCK_BYTES = 256 * 1024;
/** The codec a block is written with: 1, deflate-raw at level 6. */
export const CODEC_DEFLATE_RAW = 1;

export type Original = string | Uint8Array;

/** Where one original lives: the index of its block in the packing, its offset and length. */
export interface OriginalRef {
  block: number;
  at: number;
  len: number;
}

export interface PackedOriginals {
  /** Compressed blocks, in order. */
  blocks: Buffer[];
  /** One reference per original given, in its order. */
  refs: OriginalRef[];
}

const bytesOf = (o: Original): Buffer =>
  typeof o === "string" ? Buffer.from(o, "utf8") : Buffer.from(o.buffer, o.byteOffset, o.byteLength);

function same(a: Original, b: Original): boolean {
  if (typeof a === "string" && typeof b === "string") return a === b;
  return bytesOf(a).equals(bytesOf(b));
}

/**
 * Packs originals into compressed blocks; one equal to the one before it in its group is stored
 * once. `groups` (one key per original, e.g. its run) keeps each block to one group, so a group's
 * blocks go with it.
 */
export function packOriginals(
  originals: readonly Original[],
  groups?: readonly string[],
  blockBytes = BLOCK_BYTES,
): PackedOriginals {
  const blocks: Buffer[] = [];
  const refs: OriginalRef[] = [];
  const open = new Map<string, { parts: Buffer[]; size: number; block: number; last: number }>();
  const flush = (g: { parts: Buffer[]; size: number; block: number }) => {
    const { parts, size } = g;
    blocks[g.block] = deflateRawSync(parts.length === 1 ? parts[0] : Buffer.concat(parts, size), {
      level: 6,
    });
  };
  for (let i = 0; i < originals.length; i++) {
    const o = originals[i];
    const key = groups?.[i] ?? "";
    let g = open.get(key);
    if (g && same(o, originals[g.last])) {
      refs.push(refs[g.last]);
      g.last = i;
      continue;
    }
    if (g && g.size >= blockBytes) {
      flush(g);
      g = undefined;
    }
    if (!g) {
      g = { parts: [], size: 0, block: blocks.length, last: i };
      blocks.push(EMPTY);
      open.set(key, g);
    }
    const b = bytesOf(o);
    refs.push({ block: g.block, at: g.size, len: b.length });
    g.parts.push(b);
    g.size += b.length;
    g.last = i;
  }
  for (const g of open.values()) flush(g);
  return { blocks, refs };
}

const EMPTY = Buffer.alloc(0);

/** A block's bytes, uncompressed. */
export function inflateBlock(codec: number, body: Uint8Array): Buffer {
  if (codec !== CODEC_DEFLATE_RAW) throw new Error(`unknown original block codec ${codec}`);
  return inflateRawSync(body);
}

/** An original as ingest stores it inline: text when its bytes are UTF-8, else the bytes. */
export function originalFromBytes(bytes: Buffer): string | Buffer {
  return isUtf8(bytes) ? bytes.toString("utf8") : Buffer.from(bytes);
}

/** One original out of an uncompressed block. */
export function sliceOriginal(block: Buffer, at: number, len: number): string | Buffer {
  if (at < 0 || len < 0 || at + len > block.length)
    throw new Error(`original at ${at} (+${len}) lies outside its block of ${block.length} bytes`);
  return originalFromBytes(block.subarray(at, at + len));
}
