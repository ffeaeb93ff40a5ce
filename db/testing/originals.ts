import type { Db } from "../client";
import { ORIGINAL_OF } from "../queries/originals";
import { traceLine } from "./ingest";

/** Every trace's original as read, by id. */
export function storedOriginals(db: Db): { id: number; original: string | Buffer }[] {
  return db.sqlite.prepare(`SELECT id, ${ORIGINAL_OF} AS original FROM traces ORDER BY id`).all() as {
    id: number;
    original: string | Buffer;
  }[];
}

/** Puts every original back inline, as rows stored before blocks existed (migration 0020) hold them. */
export function unpackOriginals(db: Db): void {
  db.sqlite.exec(`UPDATE traces SET original = ${ORIGINAL_OF}, original_block = NULL, original_at = NULL,
    original_len = NULL; DELETE FROM original_blocks`);
}

/** Blocks no trace points at (there should be none). */
export function orphanBlocks(db: Db): number {
  return db.sqlite
    .prepare("SELECT count(*) FROM original_blocks WHERE id NOT IN (SELECT original_block FROM traces)")
    .pluck()
    .get() as number;
}

/** `n` trace lines of varied text in one run, so blocks hold more than one pattern. */
export function variedLines(n: number, run = "nightly"): string {
  return `${Array.from({ length: n }, (_, i) =>
    traceLine(
      { id: `t${i}`, run, response: { text: `Which timezone, ${i.toString(36).repeat(1 + (i % 5))}?` } },
      { timezone: i % 2 ? "Europe/Paris" : undefined },
    ),
  ).join("\n")}\n`;
}
