import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PreparedTrace } from "../../lib/ingest/prepare";
import { packOriginals } from "../../lib/storage/originalBlocks";
import { ingestPaths, ingestText, tempDb, traceLine } from "../testing/ingest";
import { writeSync } from "../write";
import { createIngestStore } from "./ingestStore";
import { blockStatements, ORIGINAL_OF, writeBlocks } from "./originals";
import { deleteRun } from "./runs";
import { getTraceTexts } from "./traceDetail";

/** Every record file of the test corpus (the repository's fixtures), by path. */
function corpus(): string[] {
  const root = join(import.meta.dirname, "..", "..", "fixtures");
  return (readdirSync(root, { recursive: true }) as string[])
    .filter((f) => /\.(jsonl|json|eval|gz)$/.test(f) && !f.endsWith("pre-flags.db.gz"))
    .map((f) => join(root, f))
    .sort();
}

let t: ReturnType<typeof tempDb>;
beforeEach(() => {
  t = tempDb("originals");
});
afterEach(() => t.cleanup());

const key = (run: string, identity: Uint8Array) => `${run}\u0000${Buffer.from(identity).toString("hex")}`;

describe("originals packed in blocks", () => {
  it("give back every record of the test corpus byte for byte, as ingest prepared it", async () => {
    const store = createIngestStore(t.db);
    const prepared = new Map<string, string | Buffer>();
    const capturing = {
      ...store,
      write(batchId: number, traces: PreparedTrace[], errors: Parameters<typeof store.write>[2]) {
        for (const x of traces) prepared.set(key(x.runName, x.identity), x.original);
        return store.write(batchId, traces, errors);
      },
    };
    const { ingestSources } = await import("../../lib/ingest/pipeline");
    const { openSource, sourceName } = await import("../../lib/ingest/readSource");
    const files = corpus();
    expect(files.length).toBeGreaterThan(60);
    // One ingest per file, each as its format is detected (When2Call's is named: it needs its own).
    for (const f of files)
      await ingestSources(
        [{ file: f, name: sourceName(f), stream: openSource(f), path: f }],
        {
          probe: "schedule_window",
          probeGiven: !f.includes("when2call"),
          format: f.includes("when2call") ? "when2call" : "auto",
          origin: "test",
        },
        capturing,
      );
    const rows = t.db.sqlite
      .prepare(
        `SELECT t.id, r.name AS run, t.identity, t.original_block AS block, ${ORIGINAL_OF} AS original
         FROM traces t JOIN runs r ON r.id = t.run_id ORDER BY t.id`,
      )
      .all() as {
      id: number;
      run: string;
      identity: Buffer;
      block: number | null;
      original: string | Buffer;
    }[];
    expect(rows.length).toBeGreaterThan(1000);
    const forms = t.db.sqlite.prepare("SELECT DISTINCT form FROM traces ORDER BY form").pluck().all();
    expect(forms).toEqual(
      expect.arrayContaining(["inspect", "langfuse", "otlp", "payload", "phoenix", "promptfoo", "trace"]),
    );
    for (const r of rows) {
      expect(r.block, `trace ${r.id}`).not.toBeNull();
      const want = prepared.get(key(r.run, r.identity));
      expect(want, `trace ${r.id}`).toBeDefined();
      expect(typeof r.original, `trace ${r.id}`).toBe(typeof want);
      expect(Buffer.from(r.original).equals(Buffer.from(want as string | Buffer)), `trace ${r.id}`).toBe(
        true,
      );
      // The trace page's download reads the same bytes.
      expect(getTraceTexts(t.db, r.id)?.original, `trace ${r.id}`).toEqual(r.original);
    }
    // No block is left that no trace uses, and nothing is stored inline.
    expect(
      t.db.sqlite
        .prepare("SELECT count(*) FROM original_blocks WHERE id NOT IN (SELECT original_block FROM traces)")
        .pluck()
        .get(),
    ).toBe(0);
    expect(t.db.sqlite.prepare("SELECT sum(length(original)) FROM traces").pluck().get()).toBe(0);
  });

  it("store one original once for the traces read from it: When2Call's four answers of a line", async () => {
    const file = join(
      import.meta.dirname,
      "..",
      "..",
      "fixtures",
      "when2call",
      "when2call_test_llm_judge.jsonl",
    );
    const s = await ingestPaths(t.db, [file], { format: "when2call" });
    expect(s.ingested).toBe(1200);
    const refs = t.db.sqlite
      .prepare("SELECT count(*) FROM (SELECT DISTINCT original_block, original_at, original_len FROM traces)")
      .pluck()
      .get();
    expect(refs).toBe(300);
    const lines = t.db.sqlite.prepare(`SELECT count(DISTINCT ${ORIGINAL_OF}) FROM traces`).pluck().get();
    expect(lines).toBe(300);
  });

  it("never read a block's bytes for another: ids are not reused, and a rolled-back write forgets its cache", async () => {
    await ingestText(t.db, "f.jsonl", `${traceLine({ id: "kept" })}\n`);
    const [row] = t.db.sqlite.prepare("SELECT id, run_id AS runId FROM traces").all() as {
      id: number;
      runId: number;
    }[];
    const q = blockStatements(t.db.sqlite);
    const read = t.db.sqlite.prepare(`SELECT ${ORIGINAL_OF} FROM traces WHERE id = ?`).pluck();
    const point = t.db.sqlite.prepare(
      "UPDATE traces SET original_block = ?, original_at = 0, original_len = ? WHERE id = ?",
    );
    const put = (text: string) => {
      const w = writeBlocks(q, packOriginals([text]));
      const [block] = w.values(0, row.runId);
      point.run(block, Buffer.byteLength(text), row.id);
      return block;
    };
    let first = 0;
    expect(() =>
      writeSync(t.db, () => {
        first = put('{"first":1}');
        expect(read.get(row.id)).toBe('{"first":1}');
        throw new Error("roll back");
      }),
    ).toThrow("roll back");
    // The rolled-back block's id is given again: the cache must not answer with its bytes.
    const second = writeSync(t.db, () => put('{"second":2}'));
    expect(second).toBe(first);
    expect(read.get(row.id)).toBe('{"second":2}');
    // A deleted block's id is not given again.
    writeSync(t.db, () => t.db.sqlite.prepare("DELETE FROM original_blocks WHERE id = ?").run(second));
    expect(writeSync(t.db, () => put('{"third":3}'))).toBeGreaterThan(second);
    expect(read.get(row.id)).toBe('{"third":3}');
  });

  it("a re-ingest of the same file stores no block, and deleting a run deletes its blocks", async () => {
    const text = `${Array.from({ length: 50 }, (_, i) => traceLine({ id: `t${i}`, run: i < 25 ? "a" : "b" })).join("\n")}\n`;
    await ingestText(t.db, "f.jsonl", text);
    const blocks = () =>
      t.db.sqlite.prepare("SELECT run_id FROM original_blocks ORDER BY run_id").pluck().all();
    const before = blocks();
    expect(before).toHaveLength(2);
    const again = await ingestText(t.db, "f.jsonl", text);
    expect(again.duplicates).toBe(50);
    expect(blocks()).toEqual(before);
    const runA = t.db.sqlite.prepare("SELECT id FROM runs WHERE name = 'a'").pluck().get() as number;
    await deleteRun(t.db, runA);
    expect(blocks()).toEqual(before.filter((r) => r !== runA));
  });
});
