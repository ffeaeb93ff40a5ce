/** Test helpers for fixtures: a database with the review run, and lines from strings. */
import { Readable } from "node:stream";
import { type NumberedLine, numberedLines } from "../../lib/fixtures/lines";
import type { Db } from "../client";
import { syncSeedSet } from "../queries/fixtureSeed";
import { tempDb } from "./ingest";
import { loadReviewRun } from "./reviews";

export async function fixtureDb(prefix: string): Promise<{
  db: Db;
  ids: Map<string, number>;
  cleanup: () => void;
}> {
  const t = tempDb(prefix);
  syncSeedSet(t.db);
  const ids = await loadReviewRun(t.db);
  return { db: t.db, ids, cleanup: t.cleanup };
}

/** A file's text as the numbered lines an import reads. */
export function linesOf(text: string): AsyncIterable<NumberedLine & { tooLong?: boolean }> {
  return numberedLines(Readable.from([Buffer.from(text)]));
}

export const joinLines = (lines: Iterable<string>) => {
  const all = [...lines];
  return all.length ? `${all.join("\n")}\n` : "";
};
