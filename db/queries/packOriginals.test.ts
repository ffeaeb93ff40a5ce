import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../lib/cli/testCli";
import { openDb } from "../client";
import { ingestText, tempDb, traceLine } from "../testing/ingest";
import { migratedBefore } from "../testing/migrations";
import { ORIGINAL_OF } from "./originals";
import { compactDatabase, inlineOriginals, packStoredOriginals } from "./packOriginals";
import { getTraceTexts } from "./traceDetail";

let t: ReturnType<typeof tempDb>;
beforeEach(() => {
  t = tempDb("pack");
});
afterEach(() => t.cleanup());

const ROOT = join(import.meta.dirname, "..", "..");

/** Every trace's original as read, by id. */
const originals = (sqlite = t.db.sqlite) =>
  sqlite.prepare(`SELECT id, ${ORIGINAL_OF} AS original FROM traces ORDER BY id`).all() as {
    id: number;
    original: string | Buffer;
  }[];

/** Puts every original back inline, as rows stored before blocks existed hold them. */
function unpack(): void {
  t.db.sqlite.exec(`UPDATE traces SET original = ${ORIGINAL_OF}, original_block = NULL, original_at = NULL,
    original_len = NULL; DELETE FROM original_blocks`);
}

/** Lines of varied text, so blocks hold more than one pattern. */
const lines = (n: number, run = "nightly") =>
  `${Array.from({ length: n }, (_, i) =>
    traceLine(
      { id: `t${i}`, run, response: { text: `Which timezone, ${i.toString(36).repeat(1 + (i % 5))}?` } },
      { timezone: i % 2 ? "Europe/Paris" : undefined },
    ),
  ).join("\n")}\n`;

const orphanBlocks = () =>
  t.db.sqlite
    .prepare("SELECT count(*) FROM original_blocks WHERE id NOT IN (SELECT original_block FROM traces)")
    .pluck()
    .get();

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

  it("goes on where a killed `db pack` stopped: readers see every original meanwhile, nothing is lost or left over", async () => {
    await ingestText(t.db, "a.jsonl", lines(12_000));
    const want = originals();
    unpack();
    expect(inlineOriginals(t.db)).toBe(12_000);
    // A chunk of 10 rows per transaction: long enough to be killed partway.
    const child = spawn(
      process.execPath,
      [join(ROOT, "bin", "assumeprobe.js"), "db", "pack", "--chunk", "10"],
      {
        cwd: ROOT,
        env: { ...process.env, ASSUMEPROBE_DB: t.db.path },
        stdio: "ignore",
      },
    );
    const exited = new Promise((r) => child.on("exit", r));
    let inline = 12_000;
    while (inline > 9_000) {
      await new Promise((r) => setTimeout(r, 5));
      inline = inlineOriginals(t.db);
    }
    child.kill("SIGKILL");
    await exited;
    const left = inlineOriginals(t.db);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(12_000);
    // Half packed, half inline: every reader reads them all alike.
    expect(originals()).toEqual(want);
    expect(orphanBlocks()).toBe(0);
    const r = await runCli(["db", "pack", "--json"], { ASSUMEPROBE_DB: t.db.path });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.lines.at(-1) ?? "")).toEqual({
      traces_before: 12_000,
      traces_after: 12_000,
      packed: left,
      inline: 0,
    });
    expect(originals()).toEqual(want);
    expect(orphanBlocks()).toBe(0);
  });

  it("`assumeprobe setup` (what `npm start` runs) packs what an upgraded database holds inline, and says so", async () => {
    await ingestText(t.db, "a.jsonl", lines(300));
    const want = originals();
    unpack();
    const r = await runCli(["setup"], { ASSUMEPROBE_DB: t.db.path });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "assumeprobe: packing the originals of 300 stored traces into compressed blocks",
    );
    expect(r.stdout).toContain("originals packed (traces before 300, after 300)");
    expect(inlineOriginals(t.db)).toBe(0);
    expect(originals()).toEqual(want);
    const again = await runCli(["setup"], { ASSUMEPROBE_DB: t.db.path });
    expect(again.stdout).not.toContain("packing");
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
    const r = await runCli(["db", "compact"], { ASSUMEPROBE_DB: t.db.path });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^before: [\d.]+ MB \(database [\d.]+ MB, write-ahead log [\d.]+ MB, shared memory [\d.]+ MB\)\nafter: {2}/,
    );
  });
});
