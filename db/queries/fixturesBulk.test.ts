import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FixtureError } from "../../lib/fixtures/errors";
import type { Label } from "../../lib/probe/schema";
import { parseTraceFilter } from "../../lib/traceFilter";
import type { Db } from "../client";
import { fixtureDb } from "../testing/fixtures";
import { ingestText, traceLine } from "../testing/ingest";
import { writeSync } from "../write";
import { getSet } from "./fixtureSets";
import { addFilterToSet, type BulkAddSpec, countBulkAdd } from "./fixturesBulk";
import { currentReviews, writeReviews } from "./reviews";

let db: Db;
let ids: Map<string, number>;
let cleanup: () => void;
let runId: number;
beforeEach(async () => {
  ({ db, ids, cleanup } = await fixtureDb("fixtures-bulk"));
  runId = db.sqlite.prepare("SELECT id FROM runs WHERE name = 'reviews'").pluck().get() as number;
});
afterEach(() => cleanup());

const id = (ext: string) => ids.get(ext) as number;
const spec = (query: Record<string, string>): BulkAddSpec => ({
  runId,
  filter: parseTraceFilter(query),
  field: query.field ?? "timezone",
});
const review = (ext: string, field: string, label: Label | null, reviewer = "ana", note = "") => {
  const traceId = id(ext);
  const base = currentReviews(db, traceId).get(field)?.id ?? null;
  const r = writeSync(db, () =>
    writeReviews(db, { traceId, reviewer, note, items: [{ field, label, base }] }),
  );
  if (!r.ok) throw new Error(`review of ${ext} conflicted`);
};
/** The set's fixtures as (source trace, field, expected, reviewer, note), in the order added. */
const fixturesOf = (set: string) =>
  db.sqlite
    .prepare(
      `SELECT f.source_trace_id AS traceId, f.field, f.expected, f.reviewer, f.note FROM fixtures f
       JOIN fixture_sets s ON s.id = f.set_id WHERE s.name = ? ORDER BY f.id`,
    )
    .all(set) as { traceId: number; field: string; expected: string; reviewer: string; note: string }[];

/** Four reviewed DRIFTs of timezone (three relabelled ASK, one confirmed) beside the run's imported labels. */
function reviewSome() {
  review("drift-q", "timezone", "ASK", "ana", "asks which region");
  review("drift", "timezone", "DRIFT");
  review("both", "timezone", "ASK");
  review("h-ask", "timezone", "ASK", "bo");
}

describe("adding a run page's filter to a fixture set", () => {
  it("counts the fields by expected label, then adds each with its human label through the one write path", async () => {
    reviewSome();
    const s = spec({ field: "timezone", label: "DRIFT" });
    const count = await countBulkAdd(db, s, "regressions");
    // The timezone DRIFTs: drift-q, drift, h-ask, both (all reviewed); none without a label.
    expect(count).toMatchObject({
      total: 4,
      overLimit: false,
      noLabel: 0,
      labels: { ASK: 3, DRIFT: 1 },
      set: null,
    });
    expect(getSet(db, "regressions")).toBeUndefined();

    const r = await addFilterToSet(db, s, count, "regressions", "mira");
    expect(r).toMatchObject({
      set: "regressions",
      created: true,
      added: 4,
      relabelled: 0,
      unchanged: 0,
      changed: 0,
    });
    expect(fixturesOf("regressions")).toEqual([
      {
        traceId: id("drift-q"),
        field: "timezone",
        expected: "ASK",
        reviewer: "mira",
        note: "asks which region",
      },
      { traceId: id("drift"), field: "timezone", expected: "DRIFT", reviewer: "mira", note: "" },
      { traceId: id("h-ask"), field: "timezone", expected: "ASK", reviewer: "mira", note: "" },
      { traceId: id("both"), field: "timezone", expected: "ASK", reviewer: "mira", note: "" },
    ]);

    // Again: nothing new; after a review changes a label and a new count, that fixture is relabelled.
    const again = await addFilterToSet(
      db,
      s,
      await countBulkAdd(db, s, "regressions"),
      "regressions",
      "mira",
    );
    expect(again).toMatchObject({ created: false, added: 0, relabelled: 0, unchanged: 4 });
    review("drift", "timezone", "ASK");
    const later = await countBulkAdd(db, s, "regressions");
    expect(later).toMatchObject({ total: 4, labels: { ASK: 4 }, set: { name: "regressions", fixtures: 4 } });
    expect(await addFilterToSet(db, s, later, "regressions", "mira")).toMatchObject({
      relabelled: 1,
      unchanged: 3,
    });
    expect(fixturesOf("regressions").map((f) => f.expected)).toEqual(["ASK", "ASK", "ASK", "ASK"]);
  });

  it("skips and counts fields with no human label; imported labels count as human labels", async () => {
    const s = spec({ field: "timezone" });
    const count = await countBulkAdd(db, s, "imported");
    // Imported timezone labels: tokyo (inject), h-ask (ASK), x2 (OMIT); the other nine have none.
    expect(count).toMatchObject({ total: 3, noLabel: 9, labels: { INJECT: 1, ASK: 1, OMIT: 1 } });
    const r = await addFilterToSet(db, s, count, "imported", "mira");
    expect(r).toMatchObject({ added: 3, noLabel: 9 });
    expect(fixturesOf("imported").map((f) => [f.traceId, f.expected])).toEqual([
      [id("tokyo"), "INJECT"],
      [id("h-ask"), "ASK"],
      [id("x2"), "OMIT"],
    ]);
  });

  it("on any field adds each field that meets the filter, with its own label", async () => {
    review("both", "timezone", "ASK");
    const s = spec({ field: "*", human: "reviewed" });
    const count = await countBulkAdd(db, s, "any");
    // Reviewed or imported: tokyo timezone and severity, h-ask timezone, both timezone and severity, x2 timezone.
    expect(count).toMatchObject({ total: 6, noLabel: 0 });
    await addFilterToSet(db, s, count, "any", "mira");
    const ext = new Map([...ids].map(([k, v]) => [v, k]));
    expect(fixturesOf("any").map((f) => `${ext.get(f.traceId)}:${f.field}=${f.expected}`)).toEqual([
      "tokyo:timezone=INJECT",
      "tokyo:severity=OMIT",
      "h-ask:timezone=ASK",
      "both:timezone=ASK",
      "both:severity=DRIFT",
      "x2:timezone=OMIT",
    ]);
  });

  it("adds what the count showed: a field reviewed after it is skipped and listed, one ingested after it is left alone", async () => {
    reviewSome();
    const s = spec({ field: "timezone", human: "ASK" });
    const count = await countBulkAdd(db, s, "confirmed");
    expect(count.total).toBe(3);
    // After the count: one of the three becomes DRIFT, one is cleared, a new trace with an imported ASK arrives,
    // and a field outside the count (drift, DRIFT) becomes ASK.
    review("drift-q", "timezone", "DRIFT", "bo");
    review("both", "timezone", null, "bo");
    review("drift", "timezone", "ASK", "bo");
    await ingestText(
      db,
      "late.jsonl",
      `${traceLine({ id: "late", human: { timezone: "ASK" }, response: { text: "Where?", tool_calls: [] } })}\n`,
      { run: "reviews" },
    );
    const r = await addFilterToSet(db, s, count, "confirmed", "mira");
    expect(r).toMatchObject({ added: 1, changed: 2 });
    expect(fixturesOf("confirmed").map((f) => f.traceId)).toEqual([id("h-ask")]);
    expect(r.changes).toEqual([
      {
        traceId: id("drift-q"),
        field: "timezone",
        review: expect.objectContaining({ label: "DRIFT", reviewer: "bo" }),
      },
      {
        traceId: id("both"),
        field: "timezone",
        review: expect.objectContaining({ label: null, reviewer: "bo" }),
      },
    ]);
  });

  it("writes in batches of the size asked, releasing the write lock between them", async () => {
    const s = spec({ field: "*", human: "reviewed" });
    review("drift", "timezone", "DRIFT");
    review("ask", "timezone", "ASK");
    const count = await countBulkAdd(db, s, "batched");
    expect(count.total).toBe(7);
    const other = new Database(db.sqlite.name);
    other.pragma("busy_timeout = 0");
    try {
      const pending = addFilterToSet(db, s, count, "batched", "mira", { maxFields: 2, budgetMs: 60_000 });
      // The first batch has run (synchronously, before the first yield); another writer gets the lock at once.
      expect(fixturesOf("batched").length).toBeGreaterThan(0);
      expect(fixturesOf("batched").length).toBeLessThan(7);
      expect(() =>
        other.transaction(() => other.prepare("UPDATE runs SET name = name").run()).immediate(),
      ).not.toThrow();
      const r = await pending;
      expect(r).toMatchObject({ added: 7 });
      // Traces are taken whole: a batch closes once it holds 2 fields or more.
      expect(r.batches).toBeGreaterThanOrEqual(3);
      expect(r.batches).toBeLessThanOrEqual(4);
    } finally {
      other.close();
    }
    expect(fixturesOf("batched")).toHaveLength(7);
  });

  it("refuses a selection over the limit before writing anything, and says by how much", async () => {
    const s = spec({ field: "*", human: "reviewed" });
    const count = await countBulkAdd(db, s, "big", { limit: 3 });
    expect(count).toMatchObject({ overLimit: true, total: 4, limit: 3 });
    await expect(addFilterToSet(db, s, count, "big", "mira", { limit: 3 })).rejects.toThrow(
      /more than the 3 one bulk add takes: narrow the filter/,
    );
    expect(getSet(db, "big")).toBeUndefined();
  });

  it("names what is wrong: the read-only seed, a bad set name, no reviewer", async () => {
    const s = spec({ field: "timezone" });
    await expect(countBulkAdd(db, s, "seed")).rejects.toThrow(/seed set is read-only/);
    await expect(countBulkAdd(db, s, "no spaces")).rejects.toBeInstanceOf(FixtureError);
    const count = await countBulkAdd(db, s, "fine");
    await expect(addFilterToSet(db, s, count, "seed", "mira")).rejects.toThrow(/read-only/);
    await expect(addFilterToSet(db, s, count, "fine", " ")).rejects.toThrow(/reviewer name is required/);
    expect(getSet(db, "fine")).toBeUndefined();
  });
});

describe("corrections and confirmations as separate choices", () => {
  it("counts both kinds and adds exactly the chosen one", async () => {
    reviewSome();
    // The timezone DRIFTs of ours: three reviewed ASK (corrections), one reviewed DRIFT (a confirmation).
    const query = { field: "timezone", label: "DRIFT" };
    const corrections = { ...spec(query), kind: "corrections" as const };
    const c = await countBulkAdd(db, corrections, "corrections");
    expect(c).toMatchObject({ total: 3, labels: { ASK: 3 }, kinds: { corrections: 3, confirmations: 1 } });
    await addFilterToSet(db, corrections, c, "corrections", "mira");
    expect(fixturesOf("corrections").map((f) => [f.traceId, f.expected])).toEqual([
      [id("drift-q"), "ASK"],
      [id("h-ask"), "ASK"],
      [id("both"), "ASK"],
    ]);

    const confirmations = { ...spec(query), kind: "confirmations" as const };
    const k = await countBulkAdd(db, confirmations, "confirmations");
    expect(k).toMatchObject({ total: 1, labels: { DRIFT: 1 }, kinds: { corrections: 3, confirmations: 1 } });
    await addFilterToSet(db, confirmations, k, "confirmations", "mira");
    expect(fixturesOf("confirmations").map((f) => [f.traceId, f.expected])).toEqual([[id("drift"), "DRIFT"]]);
  });
});
