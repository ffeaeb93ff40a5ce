import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { scorerChanges } from "../../lib/fixtures/configuration";
import { parseFixtureLine } from "../../lib/fixtures/exportLine";
import type { Db } from "../client";
import { fixtureDb, joinLines, linesOf } from "../testing/fixtures";
import { tempDb } from "../testing/ingest";
import { exportFixtureLines } from "./fixtureExport";
import { importFixtures } from "./fixtureImport";
import { rerunSet } from "./fixtureRuns";
import { syncSeedSet } from "./fixtureSeed";
import { addTraceFields } from "./fixtures";
import { currentLexicon, saveLexicon } from "./lexicon";

let db: Db;
let ids: Map<string, number>;
let cleanup: () => void;
const others: (() => void)[] = [];
beforeEach(async () => {
  ({ db, ids, cleanup } = await fixtureDb("fixture-lexicon"));
});
afterEach(() => {
  cleanup();
  for (const c of others.splice(0)) c();
});
const id = (ext: string) => ids.get(ext) as number;

function curate() {
  addTraceFields(db, "regressions", "ana", [
    { traceId: id("drift-q"), field: "timezone", expected: "ASK" },
    { traceId: id("drift"), field: "timezone", expected: "DRIFT" },
  ]);
}

describe("fixture sets and the shared lexicon", () => {
  it("re-run with the current lexicon: its version is in the scorer version, its terms in why", () => {
    curate();
    const before = rerunSet(db, "regressions", "cli");
    expect(before.run).toMatchObject({ passed: 1, failed: 1 });
    saveLexicon(db, { timezone: { terms: ["region"], rule: "anywhere" } }, { by: "ana" });
    const after = rerunSet(db, "regressions", "cli");
    expect(after.run.scorerVersion).toMatch(/ lexicon@1$/);
    expect(after.run).toMatchObject({ passed: 2, fixed: 1, broke: 0 });
    expect(scorerChanges(before.run.versions, after.run.versions)).toEqual(["lexicon v0 → v1"]);
    const fixed = after.flips[0];
    expect(fixed).toMatchObject({ change: "fixed", label: "ASK" });
    // The seed stays green: "region" is no term of its four fixtures.
    expect(rerunSet(db, "seed", "cli").run).toMatchObject({ passed: 4, failed: 0 });
  });

  it("export lines carry the field's lexicon entry; an import stores it as a new lexicon version", async () => {
    curate();
    saveLexicon(db, { timezone: { terms: ["region"], rule: "question" } }, { by: "ana" });
    const text = joinLines(exportFixtureLines(db, "regressions"));
    const first = parseFixtureLine(text.split("\n")[0]);
    if (!first.ok) throw new Error(first.reason);
    expect(first.line.configuration.lexicon).toEqual({ terms: ["region"], rule: "question" });

    const fresh = tempDb("fixture-lexicon-import");
    others.push(fresh.cleanup);
    syncSeedSet(fresh.db);
    const sum = await importFixtures(fresh.db, linesOf(text), { file: "x.jsonl" });
    expect(sum.lexicon).toEqual({ version: 1, fields: ["timezone"] });
    expect(sum.notes.join(" ")).toMatch(/new version 1/);
    expect(currentLexicon(fresh.db).entries).toEqual({ timezone: { terms: ["region"], rule: "question" } });
    // The same lines again change nothing, and export the same bytes.
    const again = await importFixtures(fresh.db, linesOf(text), { file: "x.jsonl" });
    expect(again.lexicon).toBeUndefined();
    expect(joinLines(exportFixtureLines(fresh.db, "regressions"))).toBe(text);
  });

  it("export lines carry the `*` entry beside the field's; an import stores both, and re-exports the same bytes", async () => {
    curate();
    saveLexicon(
      db,
      { "*": { terms: ["which"], rule: "question" }, timezone: { terms: ["region"], rule: "anywhere" } },
      { by: "ana" },
    );
    const text = joinLines(exportFixtureLines(db, "regressions"));
    const first = parseFixtureLine(text.split("\n")[0]);
    if (!first.ok) throw new Error(first.reason);
    expect(first.line.configuration.lexicon_any).toEqual({ terms: ["which"], rule: "question" });

    const fresh = tempDb("fixture-lexicon-any");
    others.push(fresh.cleanup);
    syncSeedSet(fresh.db);
    const sum = await importFixtures(fresh.db, linesOf(text), { file: "x.jsonl" });
    expect(sum.lexicon).toEqual({ version: 1, fields: ["*", "timezone"] });
    expect(currentLexicon(fresh.db).entries["*"]).toEqual({ terms: ["which"], rule: "question" });
    expect(joinLines(exportFixtureLines(fresh.db, "regressions"))).toBe(text);
    // A lexicon with no `*` entry exports no `lexicon_any` key (older lines stay byte for byte).
    saveLexicon(db, { timezone: { terms: ["region"], rule: "anywhere" } }, { by: "ana" });
    expect(joinLines(exportFixtureLines(db, "regressions"))).not.toContain("lexicon_any");
  });
});
