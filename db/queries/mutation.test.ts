import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeMutant } from "../../lib/tuning/mutation";
import { ingestText, tempDb } from "../testing/ingest";
import { syncSeedSet } from "./fixtureSeed";
import { addTraceFields } from "./fixtures";
import { saveLexicon } from "./lexicon";
import { lexiconMutationCheck, probeMutationCheck } from "./mutation";
import { saveProbeConfiguration } from "./probes";

const t = tempDb("mutation");
afterAll(() => t.cleanup());

const line = (id: string, text: string | null, call?: Record<string, unknown>) =>
  JSON.stringify({
    id,
    run: "r",
    probe: "schedule_window",
    response: { text, tool_calls: call ? [call] : [] },
  });

beforeAll(async () => {
  syncSeedSet(t.db);
  await ingestText(
    t.db,
    "r.jsonl",
    [
      line("t1", "Where is the user located?"),
      line("t2", "Which zone is the user in?"),
      line("t3", null, { name: "ask_user", arguments: { question: "anything?" } }),
    ].join("\n"),
  );
  const ids = t.db.sqlite.prepare("SELECT id FROM traces ORDER BY id").pluck().all() as number[];
  addTraceFields(t.db, "curated", "ann", [
    { traceId: ids[0], field: "timezone", expected: "ASK" },
    { traceId: ids[1], field: "timezone", expected: "ASK" },
    { traceId: ids[2], field: "severity", expected: "ASK" },
  ]);
});

const needed = (r: ReturnType<typeof probeMutationCheck>) =>
  Object.fromEntries(
    r.results.map((x) => [describeMutant(x.mutant), x.needed.map((f) => `${f.set}:${f.field}`)]),
  );

describe("the mutation check on stored probes and the lexicon", () => {
  it("names the fixtures each probe term and the clarify tool keep green, and the dead ones", () => {
    saveProbeConfiguration(
      t.db,
      "schedule_window",
      {
        ask_terms: { timezone: ["timezone", "time zone", "which zone"] },
        bait: [],
        clarify_tool: "ask_user",
      },
      "ann",
    );
    const r = probeMutationCheck(t.db, "schedule_window");
    expect(r.subject).toMatchObject({ kind: "probe", probe: "schedule_window" });
    // The seed's four, and the curated three (t1 fails already: no term asks "located").
    expect(r.fixtures).toBe(7);
    expect(r.passing).toBe(6);
    expect(needed(r)).toEqual({
      'timezone="timezone"': ["seed:timezone"],
      'timezone="time zone"': [],
      'timezone="which zone"': ["curated:timezone"],
      "clarify tool ask_user": ["curated:severity"],
    });
    expect(r.results.filter((x) => x.dead).map((x) => describeMutant(x.mutant))).toEqual([
      'timezone="time zone"',
    ]);
  });

  it("checks every lexicon term against the fixtures of its field, in every probe", () => {
    expect(lexiconMutationCheck(t.db).results).toEqual([]);
    saveLexicon(t.db, { timezone: { terms: ["located", "whereabouts"], rule: "anywhere" } }, { by: "ann" });
    const r = lexiconMutationCheck(t.db);
    expect(r.subject).toEqual({ kind: "lexicon", version: 1 });
    expect(r.passing).toBe(r.fixtures);
    expect(needed(r)).toEqual({ 'timezone="located"': ["curated:timezone"], 'timezone="whereabouts"': [] });
    expect(r.results.find((x) => x.dead)?.mutant).toEqual({
      kind: "lexicon_term",
      field: "timezone",
      term: "whereabouts",
    });
  });

  it("names an unknown probe", () => {
    expect(() => probeMutationCheck(t.db, "nope")).toThrow("unknown probe: nope");
  });
});
