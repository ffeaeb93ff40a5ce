import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseFixtureLine } from "../../lib/fixtures/exportLine";
import { worldSnapshot } from "../../lib/fixtures/world";
import { tempDb } from "../../lib/ingest/testIngest";
import { builtinProbes } from "../../lib/probe/builtin";
import type { Probe } from "../../lib/probe/schema";
import type { Db } from "../client";
import { exportFixtureLines } from "./fixtureExport";
import { importFixtures } from "./fixtureImport";
import { syncSeedSet } from "./fixtureSeed";
import { fixtureTransaction, getSet, writableSet } from "./fixtureSets";
import { addTraceFields, writeFixture } from "./fixtures";
import { fixtureDb, joinLines, linesOf } from "./fixtureTestKit";
import { getProbe, listProbeVersions, saveProbe } from "./probes";

let db: Db;
let ids: Map<string, number>;
let cleanup: () => void;
const others: (() => void)[] = [];
beforeEach(async () => {
  ({ db, ids, cleanup } = await fixtureDb("fixture-export"));
});
afterEach(() => {
  cleanup();
  for (const c of others.splice(0)) c();
});

const id = (ext: string) => ids.get(ext) as number;
const sw = builtinProbes().get("schedule_window") as Probe;

function freshDb(): Db {
  const t = tempDb("fixture-import");
  syncSeedSet(t.db);
  others.push(t.cleanup);
  return t.db;
}

/** A curated set with history, a note, two probes (one with edited terms) and every kind of response. */
function curate() {
  saveProbe(
    db,
    { ...sw, ask_terms: { timezone: ["timezone", "time zone", "which zone", "located"] } },
    "test",
  );
  addTraceFields(db, "regressions", "ana", [
    { traceId: id("drift-q"), field: "timezone", expected: "ASK", note: "asks for the region — “in words”" },
    { traceId: id("tokyo"), field: "timezone", expected: "INJECT", settled: "agreed" },
    { traceId: id("rec"), field: "severity", expected: "INJECT", settled: "adjudicated" },
    { traceId: id("omit"), field: "timezone", expected: "OMIT" },
  ]);
  addTraceFields(db, "regressions", "bo", [
    { traceId: id("drift-q"), field: "timezone", expected: "DRIFT", note: "no" },
  ]);
  addTraceFields(db, "regressions", "ana", [{ traceId: id("drift-q"), field: "timezone", expected: "ASK" }]);
}

const exported = (d: Db, set: string) => joinLines(exportFixtureLines(d, set));

describe("the JSONL export", () => {
  it("carries what DESIGN.md lists, and no re-run result or fixture row id", () => {
    curate();
    const lines = exported(db, "regressions").trim().split("\n");
    expect(lines).toHaveLength(4);
    const first = JSON.parse(lines[0]);
    expect(Object.keys(first)).toEqual([
      "schema",
      "set",
      "identity",
      "probe",
      "field",
      "expected",
      "reviewer",
      "note",
      "settled",
      "created_at",
      "updated_at",
      "source",
      "history",
      "world",
      "response",
      "configuration",
    ]);
    expect(first).toMatchObject({
      set: "regressions",
      probe: "schedule_window",
      field: "timezone",
      expected: "ASK",
    });
    expect(first.history.map((h: { expected: string }) => h.expected)).toEqual(["ASK", "DRIFT", "ASK"]);
    expect(first.configuration).toEqual({
      ask_terms: { timezone: ["timezone", "time zone", "which zone", "located"] },
      bait: sw.bait,
      clarify_tool: null,
      lexicon: null,
    });
    expect(first.source).toMatchObject({ trace_id: id("drift-q"), run: "reviews" });
    for (const l of lines) expect(parseFixtureLine(l)).toMatchObject({ ok: true });
  });

  it("export → import into a fresh database → export again gives the same bytes; re-import adds nothing", async () => {
    curate();
    const once = exported(db, "regressions");
    const fresh = freshDb();
    const first = await importFixtures(fresh, linesOf(once), { file: "x.jsonl" });
    expect(first).toMatchObject({ lines: 4, added: 4, duplicates: 0, rejected: 0, errors: [] });
    expect(first.sets).toEqual([{ name: "regressions", created: true, added: 4, relabelled: 0 }]);
    // The fresh database's schedule_window lacked "located": it gains a version with the file's terms.
    expect(first.probes).toEqual([{ id: "schedule_window", version: 2, action: "new version" }]);
    expect(getProbe(fresh, "schedule_window")?.probe.ask_terms.timezone).toContain("located");
    expect(exported(fresh, "regressions")).toBe(once);
    const settled = once
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).settled);
    expect(settled).toEqual(["single", "agreed", "adjudicated", "single"]);
    const again = await importFixtures(fresh, linesOf(once), { file: "x.jsonl" });
    expect(again).toMatchObject({ added: 0, relabelled: 0, duplicates: 4, rejected: 0, probes: [] });
    expect(exported(fresh, "regressions")).toBe(once);
    expect(listProbeVersions(fresh, "schedule_window")).toHaveLength(2);
  });

  it("a line exported before blind rounds (no settled) imports as settled by one review", async () => {
    curate();
    const old = exported(db, "regressions")
      .trim()
      .split("\n")
      .map((l) => {
        const { settled: _, ...rest } = JSON.parse(l);
        return JSON.stringify(rest);
      })
      .join("\n");
    const fresh = freshDb();
    const r = await importFixtures(fresh, linesOf(`${old}\n`), { file: "old.jsonl" });
    expect(r).toMatchObject({ added: 4, rejected: 0 });
    const stored = fresh.sqlite
      .prepare(
        "SELECT DISTINCT settled FROM fixtures WHERE set_id = (SELECT id FROM fixture_sets WHERE name = 'regressions')",
      )
      .pluck()
      .all();
    expect(stored).toEqual(["single"]);
  });

  it("imports into another set with --set, and links the source trace when this database holds it", async () => {
    curate();
    const sum = await importFixtures(db, linesOf(exported(db, "regressions")), {
      set: "copy",
      file: "x.jsonl",
    });
    expect(sum).toMatchObject({ added: 4, rejected: 0, probes: [] });
    const linked = db.sqlite
      .prepare(
        "SELECT count(*) FROM fixtures f JOIN fixture_sets s ON s.id = f.set_id WHERE s.name = 'copy' AND source_trace_id IS NOT NULL",
      )
      .pluck()
      .get();
    expect(linked).toBe(4);
  });

  it("creates a probe the database lacks from the line's world and configuration", async () => {
    const other = { ...sw, id: "other_window", ask_terms: { timezone: ["where"] }, clarify_tool: "ask_user" };
    saveProbe(db, other, "test");
    fixtureTransaction(db, () => {
      const { set } = writableSet(db, "others");
      writeFixture(db, set.id, {
        world: worldSnapshot(other),
        response: { text: "Where are you?", tool_calls: [], fenced: false },
        field: "timezone",
        expected: "ASK",
        reviewer: "ana",
        note: "",
        source: null,
        sourceTraceId: null,
      });
    });
    const text = exported(db, "others");
    const fresh = freshDb();
    const sum = await importFixtures(fresh, linesOf(text), { file: "x.jsonl" });
    expect(sum).toMatchObject({ added: 1, probes: [{ id: "other_window", version: 1, action: "created" }] });
    expect(getProbe(fresh, "other_window")?.probe).toMatchObject({
      ask_terms: { timezone: ["where"] },
      clarify_tool: "ask_user",
      user: sw.user,
    });
    expect(listProbeVersions(fresh, "other_window")[0].origin).toBe("import:x.jsonl");
    expect(exported(fresh, "others")).toBe(text);
    // An edited line no longer holds together: its identity is its content's.
    const edited = await importFixtures(fresh, linesOf(text.replace("Where are you?", "Where?")), {
      file: "x",
    });
    expect(edited.errors[0]).toMatchObject({
      line: 1,
      reason: expect.stringMatching(/identity .* was the line edited\?/),
    });
  });

  it("reports every bad line by number with what was wrong, and stores every good one", async () => {
    curate();
    const good = exported(db, "regressions").trim().split("\n");
    const broken = JSON.parse(good[1]);
    broken.expected = "MAYBE";
    const edited = JSON.parse(good[2]);
    edited.response.text = "edited";
    const relabel = JSON.parse(good[3]);
    relabel.expected = "DRIFT";
    const file = [
      good[0],
      "",
      "{not json",
      JSON.stringify(broken),
      JSON.stringify(edited),
      JSON.stringify({ ...JSON.parse(good[0]), set: "seed" }),
      JSON.stringify(relabel),
      "[]",
      good[1],
    ].join("\r\n");
    const fresh = freshDb();
    const sum = await importFixtures(fresh, linesOf(file), { file: "x.jsonl" });
    expect(sum).toMatchObject({ lines: 8, added: 2, rejected: 6 });
    expect(sum.errors.map((e) => e.line)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(sum.errors[0].reason).toMatch(/^not JSON/);
    expect(sum.errors[1].reason).toMatch(/^expected: /);
    expect(sum.errors[2].reason).toMatch(/identity/);
    expect(sum.errors[3].reason).toMatch(/seed set is read-only.*--set NAME/);
    expect(sum.errors[4].reason).toMatch(/last history entry/);
    expect(sum.errors[5].reason).toMatch(/^\(top\): /);
    expect(getSet(fresh, "seed")).toMatchObject({ builtin: true });
  });

  it("relabels a fixture whose line carries another expected label, keeping the change in its history", async () => {
    curate();
    const lines = exported(db, "regressions").trim().split("\n");
    const line = JSON.parse(lines[3]);
    line.history.push({
      expected: "DRIFT",
      reviewer: "cy",
      note: "changed my mind",
      at: "2027-01-01T00:00:00.000Z",
    });
    Object.assign(line, {
      expected: "DRIFT",
      reviewer: "cy",
      note: "changed my mind",
      updated_at: "2027-01-01T00:00:00.000Z",
    });
    const sum = await importFixtures(db, linesOf(JSON.stringify(line)), { file: "x" });
    expect(sum).toMatchObject({ relabelled: 1, added: 0 });
    const after = JSON.parse(exported(db, "regressions").trim().split("\n")[3]);
    expect(after).toMatchObject({
      expected: "DRIFT",
      reviewer: "cy",
      updated_at: "2027-01-01T00:00:00.000Z",
    });
    expect(after.history.map((h: { expected: string }) => h.expected)).toEqual(["OMIT", "DRIFT"]);
  });

  it("refuses an import into the seed set before reading a line", async () => {
    await expect(
      importFixtures(db, linesOf(exported(db, "seed")), { set: "seed", file: "x" }),
    ).rejects.toThrow(/read-only/);
    const sum = await importFixtures(db, linesOf(exported(db, "seed")), { file: "x" });
    expect(sum).toMatchObject({ added: 0, rejected: 4 });
  });
});
