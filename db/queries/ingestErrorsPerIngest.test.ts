import { afterAll, describe, expect, it } from "vitest";
import { inconsistencies, ingestText, tempDb, traceLine } from "../testing/ingest";
import { listIngestErrors, listIngests } from "./ingestList";

const { db, cleanup } = tempDb("errors-per-ingest");
afterAll(cleanup);
const q = db.sqlite;

const lastBatch = () => q.prepare("SELECT max(id) FROM ingest_batches").pluck().get() as number;
/** An ingest's listed rejected records as "file:line reason". */
const listed = (batch: number) =>
  listIngestErrors(db, batch, { limit: 100 }).rows.map((r) => `${r.file}:${r.line} ${r.reason.slice(0, 12)}`);
const rejectedOf = (run: string) =>
  q.prepare("SELECT rejected_count FROM runs WHERE name = ?").pluck().get(run) as number | undefined;
const lines = (...l: string[]) => `${l.join("\n")}\n`;

describe("each ingest keeps its own rejected records", () => {
  it("a re-ingest of a file with a run lists its bad lines again, and the first ingest keeps them", async () => {
    const text = lines(traceLine({ run: "kept" }), "not json", traceLine({ run: "kept" }, { x: 1 }), "[1]");
    await ingestText(db, "kept.jsonl", text);
    const first = lastBatch();
    const before = listed(first);
    expect(before).toHaveLength(2);
    await ingestText(db, "kept.jsonl", text);
    const second = lastBatch();
    expect(listed(second)).toEqual(before);
    expect(listed(first)).toEqual(before);
    // The run counts each bad line once, however often it is read.
    expect(rejectedOf("kept")).toBe(2);
    const byId = new Map(listIngests(db, { limit: 10 }).rows.map((r) => [r.id, r]));
    expect([byId.get(first)?.storedErrors, byId.get(second)?.storedErrors]).toEqual([2, 2]);
    expect(inconsistencies(q)).toEqual([]);
  });

  it("a file of bad lines alone: every ingest lists them, also once its run exists and claims them", async () => {
    const text = lines("not json", "[1]", "{}");
    await ingestText(db, "alone.jsonl", text);
    const a = lastBatch();
    await ingestText(db, "alone.jsonl", text);
    const b = lastBatch();
    expect(listed(a)).toHaveLength(3);
    expect(listed(b)).toEqual(listed(a));
    // The run appears: the next ingest counts them against it, and the earlier two still list them.
    await ingestText(db, "other.jsonl", lines(traceLine({ run: "alone" })));
    await ingestText(db, "alone.jsonl", text);
    const c = lastBatch();
    expect(rejectedOf("alone")).toBe(3);
    for (const batch of [a, b, c]) expect(listed(batch), `ingest ${batch}`).toEqual(listed(c));
    expect(listIngestErrors(db, a, { limit: 100 }).rows.map((r) => r.run)).toEqual([
      "alone",
      "alone",
      "alone",
    ]);
    expect(inconsistencies(q)).toEqual([]);
  });

  it("pages through one ingest's records after a re-ingest without repeating or losing one", async () => {
    const bad = Array.from({ length: 7 }, (_, i) => `bad ${i}`);
    const text = lines(traceLine({ run: "paged" }), ...bad);
    await ingestText(db, "paged.jsonl", text);
    const first = lastBatch();
    await ingestText(db, "paged.jsonl", text);
    const seen: number[] = [];
    let after: { file: string; line: number; id: number } | undefined;
    for (;;) {
      const { rows, more } = listIngestErrors(db, first, { after, limit: 3 });
      seen.push(...rows.map((r) => r.line));
      const last = rows.at(-1);
      if (!more || !last) break;
      after = { file: last.file, line: last.line, id: last.id };
    }
    expect(seen).toEqual([2, 3, 4, 5, 6, 7, 8]);
  });
});
