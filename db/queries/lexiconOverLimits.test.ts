import { afterAll, describe, expect, it } from "vitest";
import { applyLexiconEdit, LexiconError } from "../../lib/lexicon/lexicon";
import { builtinProbes } from "../../lib/probe/builtin";
import { compileProbe } from "../../lib/probe/compile";
import { type Probe, ProbeSchema, StoredProbeSchema } from "../../lib/probe/schema";
import { scoreTrace } from "../../lib/probe/score";
import { LexiconEntriesSchema } from "../../lib/tuning/contract";
import { tempDb } from "../testing/ingest";
import { currentLexicon, saveLexicon } from "./lexicon";
import { lexiconMutationCheck } from "./mutation";
import { getProbe, saveProbeConfiguration } from "./probes";

const { db, cleanup } = tempDb("lexicon-over-limits");
afterAll(cleanup);

/** A version written as the product wrote it before the limits existed: straight into its tables. */
function storeOldVersion(version: number, field: string, terms: string[]): void {
  db.sqlite
    .prepare("INSERT INTO lexicon_versions(version, saved_by, origin, note) VALUES (?, 'old', 'edit', '')")
    .run(version);
  db.sqlite
    .prepare("INSERT INTO lexicon_entries(version, field, terms, rule) VALUES (?, ?, ?, 'anywhere')")
    .run(version, field, JSON.stringify(terms));
}

describe("a lexicon saved before the limits", () => {
  const terms = [...Array.from({ length: 10_000 }, (_, i) => `term${i}`), "which region"].sort();
  storeOldVersion(1, "timezone", terms);
  const probe = builtinProbes().get("schedule_window") as Probe;

  it("is read and scores as it is", () => {
    const lexicon = currentLexicon(db);
    expect(lexicon.entries.timezone.terms).toHaveLength(10_001);
    const p = compileProbe(probe, lexicon);
    const score = (text: string) =>
      scoreTrace({ response: { text, tool_calls: [], fenced: false } }, p).fields.timezone.label;
    expect(score("Which region is the user in?")).toBe("ASK");
    expect(score("Booked term99999.")).toBe("DRIFT");
    expect(score("Booked term9999.")).toBe("ASK");
  });

  it("gets its mutation check", () => {
    const report = lexiconMutationCheck(db);
    expect(report.results).toHaveLength(10_001);
  });

  it("takes the next edit only when it brings the lexicon within the limits", () => {
    const now = currentLexicon(db).entries;
    expect(() =>
      saveLexicon(db, applyLexiconEdit(now, { add: [{ field: "region", term: "dc" }] }, { limits: false }), {
        by: "x",
      }),
    ).toThrow(/timezone: 10,001 terms; a field holds at most 500/);
    expect(() => applyLexiconEdit(now, { remove: [{ field: "timezone", term: "term1" }] })).toThrow(
      LexiconError,
    );
    // The pages' drafts say the same.
    const draft = LexiconEntriesSchema.safeParse(now);
    expect(draft.success).toBe(false);
    expect(draft.error?.issues[0].message).toMatch(
      /timezone: 10,001 terms; a field holds at most 500 \(9,501 too many\)/,
    );
    const saved = saveLexicon(
      db,
      applyLexiconEdit(now, { clear: ["timezone"], add: [{ field: "timezone", term: "which region" }] }),
      { by: "x" },
    );
    expect(saved).toMatchObject({ version: 2, created: true });
    expect(currentLexicon(db).entries.timezone.terms).toEqual(["which region"]);
  });

  it("a probe definition saved before the limits is read as stored, and an edit must come within them", () => {
    const stored = (getProbe(db, "schedule_window") as { probe: Probe }).probe;
    const many = { ...stored, ask_terms: { timezone: Array.from({ length: 600 }, (_, i) => `t${i}`) } };
    expect(StoredProbeSchema.safeParse(many).success).toBe(true);
    expect(ProbeSchema.safeParse(many).error?.issues[0].message).toMatch(/timezone: 600 terms/);
    expect(() =>
      saveProbeConfiguration(
        db,
        "schedule_window",
        { ask_terms: many.ask_terms, bait: [], clarify_tool: null },
        "x",
      ),
    ).toThrow(/timezone: 600 terms; a field holds at most 500/);
  });
});
