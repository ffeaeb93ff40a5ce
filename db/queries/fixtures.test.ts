import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FixtureError } from "../../lib/fixtures/errors";
import type { HistoryEntry } from "../../lib/fixtures/exportLine";
import type { Db } from "../client";
import { fixtureDb } from "../testing/fixtures";
import { writeSync } from "../write";
import { syncSeedSet } from "./fixtureSeed";
import { createSet, deleteFixture, deleteSet, getSet } from "./fixtureSets";
import { addTraceFields } from "./fixtures";
import { writeReviews } from "./reviews";

import { deleteRun, getRunByName } from "./runs";

let db: Db;
let ids: Map<string, number>;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, ids, cleanup } = await fixtureDb("fixtures"));
});
afterEach(() => cleanup());

const id = (ext: string) => ids.get(ext) as number;
const rows = (set: string) =>
  db.sqlite
    .prepare(
      `SELECT f.identity, f.field, f.expected, f.reviewer, f.note, f.history, f.source, f.source_trace_id AS sourceTraceId,
              f.response, w.world
       FROM fixtures f JOIN fixture_sets s ON s.id = f.set_id JOIN fixture_worlds w ON w.digest = f.world_digest
       WHERE s.name = ? ORDER BY f.id`,
    )
    .all(set) as {
    identity: string;
    field: string;
    expected: string;
    reviewer: string;
    note: string;
    history: string;
    source: string | null;
    sourceTraceId: number | null;
    response: string;
    world: string;
  }[];

describe("the seed set", () => {
  it("is built in, read-only and holds the article's four fixtures, once however often it is synced", () => {
    syncSeedSet(db);
    syncSeedSet(db);
    const set = getSet(db, "seed");
    expect(set?.builtin).toBe(true);
    const seed = rows("seed");
    expect(seed.map((r) => [r.field, r.expected])).toEqual([
      ["timezone", "ASK"],
      ["timezone", "OMIT"],
      ["timezone", "INJECT"],
      ["timezone", "INJECT"],
    ]);
    expect(seed[3].note).toBe("Tokyo is hidden, not visible");
    expect(() =>
      addTraceFields(db, "seed", "ana", [{ traceId: id("ask"), field: "timezone", expected: "ASK" }]),
    ).toThrow(FixtureError);
    expect(() => deleteSet(db, "seed")).toThrow(/read-only/);
    expect(() => deleteFixture(db, "seed", seed[0].identity)).toThrow(/read-only/);
    expect(() => createSet(db, "seed")).toThrow(/already/);
    expect(rows("seed")).toHaveLength(4);
  });
});

describe("adding trace fields to a set", () => {
  it("snapshots the trace's world, response and field, creating the set when missing", () => {
    const r = addTraceFields(db, "regressions", "ana", [
      { traceId: id("drift-q"), field: "timezone", expected: "ASK", note: "asks for the region" },
    ]);
    expect(r).toMatchObject({ set: "regressions", created: true });
    expect(r.fixtures[0]).toMatchObject({ outcome: "added", field: "timezone", expected: "ASK" });
    const [f] = rows("regressions");
    expect(JSON.parse(f.response)).toEqual({
      text: "Which region is u_9182 in? I need that to place 09:00 correctly.",
      tool_calls: [],
      fenced: false,
    });
    const world = JSON.parse(f.world);
    expect(world).toMatchObject({
      id: "schedule_window",
      redacted: { tenant: "acme-west", user_id: "u_9182" },
    });
    expect(world.ask_terms).toBeUndefined();
    expect(JSON.parse(f.source as string)).toMatchObject({
      trace_id: id("drift-q"),
      run: "reviews",
      id: "drift-q",
      probe_version: 1,
    });
    expect(f.sourceTraceId).toBe(id("drift-q"));
    expect(JSON.parse(f.history)).toEqual([
      expect.objectContaining({ expected: "ASK", reviewer: "ana", note: "asks for the region" }),
    ]);
  });

  it("keeps one fixture per case: the same label again changes nothing, another one is kept in its history", () => {
    const add = (expected: "ASK" | "DRIFT", who: string) =>
      addTraceFields(db, "s", who, [{ traceId: id("drift-q"), field: "timezone", expected }]).fixtures[0];
    expect(add("ASK", "ana").outcome).toBe("added");
    expect(add("ASK", "bo").outcome).toBe("unchanged");
    expect(add("DRIFT", "bo").outcome).toBe("relabelled");
    const all = rows("s");
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ expected: "DRIFT", reviewer: "bo" });
    const h = JSON.parse(all[0].history) as HistoryEntry[];
    expect(h.map((x) => [x.expected, x.reviewer])).toEqual([
      ["ASK", "ana"],
      ["DRIFT", "bo"],
    ]);
    // Another field of the same trace, or the same case in another set, is another fixture.
    addTraceFields(db, "s", "ana", [{ traceId: id("drift-q"), field: "severity", expected: "DRIFT" }]);
    addTraceFields(db, "t", "ana", [{ traceId: id("drift-q"), field: "timezone", expected: "ASK" }]);
    expect(rows("s")).toHaveLength(2);
    expect(rows("t")[0].identity).toBe(all[0].identity);
  });

  it("refuses what cannot be a fixture, saying why, and writes nothing of the batch", () => {
    expect(() =>
      addTraceFields(db, "s", "ana", [
        { traceId: id("ask"), field: "timezone", expected: "ASK" },
        { traceId: id("ask"), field: "nope", expected: "ASK" },
      ]),
    ).toThrow(/no probed field "nope"/);
    expect(() =>
      addTraceFields(db, "s", "ana", [{ traceId: 999_999, field: "timezone", expected: "ASK" }]),
    ).toThrow(/no trace 999999/);
    expect(() =>
      addTraceFields(db, "bad name", "ana", [{ traceId: id("ask"), field: "timezone", expected: "ASK" }]),
    ).toThrow(/letters, digits/);
    expect(getSet(db, "s")).toBeUndefined();
  });

  it("is a copy: a later review of the source trace leaves it alone, and deleting the run keeps it", () => {
    addTraceFields(db, "s", "ana", [{ traceId: id("drift-q"), field: "timezone", expected: "ASK" }]);
    const before = rows("s")[0];
    const r = writeSync(db, () =>
      writeReviews(db, {
        traceId: id("drift-q"),
        reviewer: "bo",
        items: [{ field: "timezone", label: "DRIFT", base: null }],
      }),
    );
    expect(r.ok).toBe(true);
    expect(rows("s")[0]).toEqual(before);
    deleteRun(db, (getRunByName(db, "reviews") as { id: number }).id);
    const after = rows("s")[0];
    expect(after.sourceTraceId).toBe(null);
    expect({ ...after, sourceTraceId: before.sourceTraceId }).toEqual(before);
    expect(JSON.parse(after.source as string).trace_id).toBe(id("drift-q"));
  });

  it("deletes a fixture or a set of a writable set, and the worlds no fixture uses", () => {
    addTraceFields(db, "s", "ana", [{ traceId: id("drift-q"), field: "timezone", expected: "ASK" }]);
    const [f] = rows("s");
    expect(deleteFixture(db, "s", f.identity)).toBe(true);
    expect(deleteFixture(db, "s", f.identity)).toBe(false);
    addTraceFields(db, "s", "ana", [{ traceId: id("ask"), field: "timezone", expected: "ASK" }]);
    expect(deleteSet(db, "s")).toBe(1);
    expect(getSet(db, "s")).toBeUndefined();
    // The seed's world stays.
    expect(db.sqlite.prepare("SELECT count(*) FROM fixture_worlds").pluck().get()).toBe(1);
  });
});
