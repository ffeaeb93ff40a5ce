import { afterAll, describe, expect, it } from "vitest";
import { EMPTY_LEXICON } from "../../lib/lexicon/lexicon";
import { ingestText, tempDb } from "../testing/ingest";
import {
  currentLexicon,
  currentLexiconVersion,
  LexiconConflict,
  lexiconAt,
  listLexiconVersions,
  saveLexicon,
} from "./lexicon";
import { runScoring } from "./runScoring";

const { db, cleanup } = tempDb("lexicon");
afterAll(cleanup);

const ask = (id: string, text: string) =>
  JSON.stringify({ id, probe: "schedule_window", response: { text, tool_calls: [] } });

describe("the shared lexicon's storage", () => {
  it("starts empty, at version 0", () => {
    expect(currentLexiconVersion(db)).toBe(0);
    expect(currentLexicon(db)).toBe(EMPTY_LEXICON);
    expect(listLexiconVersions(db)).toEqual([]);
  });

  it("saves whole versions with who saved them; the same entries again save nothing", () => {
    const a = saveLexicon(db, { timezone: { terms: ["Region"], rule: "anywhere" } }, { by: "mira" });
    expect(a).toMatchObject({ version: 1, created: true });
    expect(currentLexicon(db).entries).toEqual({ timezone: { terms: ["region"], rule: "anywhere" } });
    const again = saveLexicon(db, { timezone: { terms: ["region"], rule: "anywhere" } }, { by: "jon" });
    expect(again).toMatchObject({ version: 1, created: false });
    const b = saveLexicon(
      db,
      { timezone: { terms: ["region", "locat*"], rule: "question" } },
      { by: "jon", note: "questions only" },
    );
    expect(b.version).toBe(2);
    expect(lexiconAt(db, 1)?.entries.timezone.terms).toEqual(["region"]);
    expect(lexiconAt(db, 2)?.entries.timezone).toEqual({ terms: ["locat*", "region"], rule: "question" });
    expect(lexiconAt(db, 9)).toBeUndefined();
    expect(lexiconAt(db, 2)).toBe(lexiconAt(db, 2));
    expect(listLexiconVersions(db).map((v) => [v.version, v.savedBy, v.fields, v.terms, v.note])).toEqual([
      [2, "jon", 1, 2, "questions only"],
      [1, "mira", 1, 1, ""],
    ]);
  });

  it("refuses a draft made from a version that is no longer current, and writes nothing", () => {
    expect(() => saveLexicon(db, {}, { by: "mira", base: 1 })).toThrow(LexiconConflict);
    expect(currentLexiconVersion(db)).toBe(2);
    expect(() => saveLexicon(db, {}, { by: " " })).toThrow(/who saves/);
    expect(() => saveLexicon(db, { timezone: { terms: ["*"], rule: "anywhere" } }, { by: "x" })).toThrow(
      /no letter or digit/,
    );
    expect(currentLexiconVersion(db)).toBe(2);
  });

  it("scores ingested traces with the current lexicon, and records its version per trace and run", async () => {
    saveLexicon(db, { timezone: { terms: ["region"], rule: "anywhere" } }, { by: "mira", base: 2 });
    await ingestText(
      db,
      "n.jsonl",
      `${[ask("a", "Which region are you in?"), ask("b", "Done.")].join("\n")}\n`,
      {
        run: "lexicon-run",
      },
    );
    const rows = db.sqlite
      .prepare(
        "SELECT ext_id AS id, labels, lexicon_version AS lv FROM traces WHERE run_id = (SELECT id FROM runs WHERE name = 'lexicon-run') ORDER BY id",
      )
      .all();
    expect(rows).toEqual([
      { id: "a", labels: '{"timezone":"ASK","severity":"DRIFT"}', lv: 3 },
      { id: "b", labels: '{"timezone":"DRIFT","severity":"DRIFT"}', lv: 3 },
    ]);
    const runId = db.sqlite.prepare("SELECT id FROM runs WHERE name = 'lexicon-run'").pluck().get() as number;
    expect(runScoring(db, runId)).toEqual([
      { probeId: "schedule_window", probeVersion: 1, lexiconVersion: 3 },
    ]);
  });
});
