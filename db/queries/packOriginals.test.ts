import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../client";
import { openDb } from "../client";
import { ingestText, tempDb, traceLine } from "../testing/ingest";
import { migratedBefore } from "../testing/migrations";
import { storedOriginals, unpackOriginals, variedLines } from "../testing/originals";
import { compactDatabase, packStoredOriginals } from "./packOriginals";
import { getTraceTexts } from "./traceDetail";

let t: ReturnType<typeof tempDb>;
beforeEach(() => {
  t = tempDb("pack");
});
afterEach(() => t.cleanup());

const originals = (sqlite?: Db["sqlite"]) => storedOriginals(sqlite ? { ...t.db, sqlite } : t.db);
const unpack = () => unpackOriginals(t.db);
const lines = variedLines;

describe("packing stored originals", () => {
  it("a database of the release before blocks opens, reads its inline originals, and packs them unchanged", () => {
    const path = join(t.dir, "old.db");
    const old = migratedBefore(t.dir, path, "0020");
    old.exec("INSERT INTO runs(id, name, model) VALUES (1, 'old', 'm')");
    const insert = old.prepare(
      `INSERT INTO traces(run_id, probe_id, probe_version, identity, hash, source, line, form, gate, labels, result, response, original)
       VALUES (1, 'schedule_window', 1, randomblob(16), x'01', 's', ?, 'trace', 'no_call', '{}', '{}', '{}', ?)`,
    );
    const text = traceLine({ id: "a" });
    const binary = Buffer.from([0x7b, 0xff, 0x7d]);
    insert.run(1, text);
    insert.run(2, binary);
    insert.run(3, `\ufeff${text}`);
    old.close();
    const db = openDb(path);
    try {
      const before = originals(db.sqlite);
      expect(before.map((r) => r.original)).toEqual([text, binary, `\ufeff${text}`]);
      const r = packStoredOriginals({ ...db }, { chunk: 2 });
      expect(r).toEqual({ tracesBefore: 3, tracesAfter: 3, packed: 3, inline: 0 });
      expect(originals(db.sqlite)).toEqual(before);
      expect(Buffer.isBuffer(getTraceTexts(db, before[1].id)?.original)).toBe(true);
      // Run again: nothing left to pack.
      expect(packStoredOriginals(db).packed).toBe(0);
    } finally {
      db.sqlite.close();
    }
  });

  it("compacts: packing then VACUUM shrinks the file, and the CLI prints the sizes", async () => {
    await ingestText(t.db, "a.jsonl", lines(3000, "one"));
    await ingestText(t.db, "b.jsonl", lines(3000, "two"));
    const want = originals();
    unpack();
    const inlineSize = compactDatabase(t.db).after.db;
    const inlineBytes = t.db.sqlite
      .prepare("SELECT sum(length(CAST(original AS BLOB))) FROM traces")
      .pluck()
      .get() as number;
    packStoredOriginals(t.db);
    const packedBytes = t.db.sqlite
      .prepare("SELECT sum(length(body)) FROM original_blocks")
      .pluck()
      .get() as number;
    expect(packedBytes).toBeLessThan(inlineBytes * 0.3);
    const { before, after } = compactDatabase(t.db);
    // Packing alone frees pages inside the file; VACUUM gives them back.
    expect(before.db).toBeGreaterThanOrEqual(inlineSize);
    expect(after.db).toBeLessThan(inlineSize - (inlineBytes - packedBytes) / 2);
    expect(after.wal).toBe(0);
    expect(originals()).toEqual(want);
  });
});
