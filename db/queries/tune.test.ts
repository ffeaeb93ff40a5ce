import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { configurationOf } from "../../lib/fixtures/configuration";
import type { LexiconEntry } from "../../lib/lexicon/lexicon";
import type { ScoreTransitions } from "../../lib/probe/transitions";
import { projectRoot } from "../../lib/root";
import type { WhatIfReport } from "../../lib/tuning/whatIf";
import type { Db } from "../client";
import { ingestText, tempDb } from "../testing/ingest";
import { expectConsistent, snapshot } from "../testing/rescore";
import { writeSync } from "../write";
import { addTraceFields } from "./fixtures";
import { saveLexicon } from "./lexicon";
import { getProbe, saveProbeConfiguration } from "./probes";
import { queueConfigRescore, type RescoreReport } from "./rescore/jobs";
import { runRescore } from "./rescore/run";
import { writeReviews } from "./reviews";
import { runScoring } from "./runScoring";
import { whatIf } from "./whatIf";

const DEMO = join(projectRoot(), "fixtures", "demo");
const FILES = ["heron-mini-2026-11-29.jsonl", "tern-7b-instruct-2026-11-27.jsonl"];
const text = (f: string) => readFileSync(join(DEMO, f), "utf8");

const dbs: (() => void)[] = [];
afterAll(() => {
  for (const c of dbs) c();
});

async function demoDb(prefix: string, files = FILES): Promise<Db> {
  const t = tempDb(prefix);
  dbs.push(t.cleanup);
  for (const f of files) await ingestText(t.db, f, text(f));
  return t.db;
}

const runIds = (db: Db) => db.sqlite.prepare("SELECT id FROM runs ORDER BY id").pluck().all() as number[];

function rescoreAll(db: Db, batchSize = 7): RescoreReport[] {
  return runIds(db).map((id) => runRescore(db, queueConfigRescore(db, id, "test", "tester"), { batchSize }));
}

/** The label moves of re-scores, per field, as the what-if counts them. */
function movesOf(reports: RescoreReport[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  const add = (t: ScoreTransitions) => {
    for (const [field, byFrom] of Object.entries(t.fields))
      for (const [from, byTo] of Object.entries(byFrom))
        for (const [to, n] of Object.entries(byTo)) {
          out[field] ??= {};
          out[field][`${from}>${to}`] = (out[field][`${from}>${to}`] ?? 0) + n;
        }
  };
  for (const r of reports) add(r.transitions);
  return out;
}

function predicted(r: WhatIfReport): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const f of r.traces.fields) {
    out[f.field] = {};
    for (const m of f.moves) out[f.field][`${m.from}>${m.to}`] = m.count;
  }
  return out;
}

/** The stored state a fresh ingest under the current configuration gives (what a re-score must equal). */
async function freshState(db: Db, entries: Record<string, LexiconEntry>) {
  const t = tempDb("tune-fresh");
  dbs.push(t.cleanup);
  const cur = getProbe(db, "schedule_window");
  if (cur && getProbe(t.db, "schedule_window")?.version !== cur.version)
    saveProbeConfiguration(t.db, "schedule_window", configurationOf(cur.probe), "tester");
  saveLexicon(t.db, entries, { by: "tester" });
  for (const f of FILES) await ingestText(t.db, f, text(f));
  return comparable(t.db);
}

/** Labels, results and tags by trace (versions aside: a trace left alone keeps the ones it had). */
function comparable(db: Db) {
  return [...snapshot(db).entries()].map(([k, r]) => [k, r.labels, r.result, r.tags.join(" ")]);
}

describe("the what-if and the re-score of a lexicon change", () => {
  it("predicts exactly the label moves the re-score makes, which equal a fresh ingest", async () => {
    const db = await demoDb("tune-lexicon");
    const before = snapshot(db);
    const draft = { timezone: { terms: ["region", "locat*"], rule: "anywhere" as const } };
    const report = whatIf(db, { kind: "lexicon", entries: draft });
    expect(report.change).toBe('timezone +"locat*" +"region"');
    expect(report.fields).toEqual(["timezone"]);
    const tz = report.traces.fields.find((f) => f.field === "timezone");
    expect(tz?.moves.map((m) => `${m.from}>${m.to}`)).toEqual(["DRIFT>ASK"]);
    expect(tz?.moved).toBeGreaterThan(3);
    // The what-if saved nothing.
    expect(snapshot(db)).toEqual(before);

    saveLexicon(db, draft, { by: "tester" });
    const reports = rescoreAll(db);
    expect(movesOf(reports)).toEqual(predicted(report));
    // Only the traces the change can move were scored again.
    const total = reports.reduce((n, r) => n + r.scanned, 0);
    const checked = reports.reduce((n, r) => n + r.checked, 0);
    expect(total).toBe(before.size);
    expect(checked).toBeLessThan(total / 4);
    expectConsistent(db);
    expect(comparable(db)).toEqual(await freshState(db, draft));
    for (const id of runIds(db))
      expect(runScoring(db, id)).toEqual([
        { probeId: "schedule_window", probeVersion: 1, lexiconVersion: 1 },
      ]);

    // Under an unchanged configuration a re-score changes and checks nothing.
    const again = rescoreAll(db);
    expect(again.map((r) => [r.changed, r.checked, r.skipped])).toEqual(again.map(() => [0, 0, 0]));

    // And the reverse restores every label, tag and count exactly.
    saveLexicon(db, {}, { by: "tester" });
    const back = rescoreAll(db);
    expect(back.reduce((n, r) => n + r.changed, 0)).toBe(reports.reduce((n, r) => n + r.changed, 0));
    expect(comparable(db)).toEqual(
      [...before.entries()].map(([k, r]) => [k, r.labels, r.result, r.tags.join(" ")]),
    );
    expectConsistent(db);
  });

  it("counts moved fields whose human label agrees or disagrees, and fixtures fixed and broken", async () => {
    // heron-mini's night carries no imported human labels: the reviews below are the only ones.
    const db = await demoDb("tune-humans", [FILES[0]]);
    const id = (ext: string) =>
      db.sqlite
        .prepare("SELECT id FROM traces WHERE ext_id = ? AND run_id = (SELECT min(id) FROM runs)")
        .pluck()
        .get(ext) as number;
    // Two traces ask "Which region is u_9182 in?": one reviewer says ASK, another DRIFT.
    const region = db.sqlite
      .prepare("SELECT ext_id FROM traces WHERE response LIKE '%Which region%' ORDER BY id")
      .pluck()
      .all() as string[];
    expect(region.length).toBeGreaterThanOrEqual(2);
    writeSync(db, () =>
      writeReviews(db, {
        traceId: id(region[0]),
        reviewer: "mira",
        items: [{ field: "timezone", label: "ASK", base: null }],
      }),
    );
    writeSync(db, () =>
      writeReviews(db, {
        traceId: id(region[1]),
        reviewer: "jon",
        items: [{ field: "timezone", label: "DRIFT", base: null }],
      }),
    );
    const located = db.sqlite
      .prepare("SELECT ext_id FROM traces WHERE response LIKE '%is the user located?%' ORDER BY id")
      .pluck()
      .get() as string;
    addTraceFields(db, "regions", "mira", [
      { traceId: id(region[0]), field: "timezone", expected: "ASK" },
      { traceId: id(located), field: "timezone", expected: "DRIFT" },
    ]);
    const r = whatIf(db, {
      kind: "lexicon",
      entries: { timezone: { terms: ["region", "locat*"], rule: "anywhere" } },
    });
    const tz = r.traces.fields.find((f) => f.field === "timezone");
    expect(tz?.agrees).toBe(1);
    expect(tz?.disagrees).toBe(1);
    const set = r.fixtures.sets.find((s) => s.set === "regions");
    expect(set).toMatchObject({ touched: 2, fixed: 1, broken: 1 });
    expect(r.fixtures.seedBroken).toBe(0);
    expectConsistent(db);
  });

  it("tells a seed fixture broken by a draft", async () => {
    const db = await demoDb("tune-seed");
    const { syncSeedSet } = await import("./fixtureSeed");
    syncSeedSet(db);
    // The seed's ASK fixture says "which timezone": asking only inside questions keeps it; dropping
    // the probe's terms for a lexicon that lacks them breaks it.
    const r = whatIf(db, {
      kind: "probe",
      probe: "schedule_window",
      configuration: { ask_terms: { timezone: ["zoneinfo"] }, bait: ["UTC"], clarify_tool: null },
    });
    expect(r.fixtures.seedBroken).toBeGreaterThan(0);
    expect(r.fixtures.sets[0]).toMatchObject({ set: "seed", seed: true });
  });
});

describe("the what-if and the re-score of a probe's configuration", () => {
  it("ask terms: predicted moves equal the re-score's; run_scoring names the new version", async () => {
    const db = await demoDb("tune-probe");
    const cur = getProbe(db, "schedule_window");
    if (!cur) throw new Error("no probe");
    const config = {
      ...configurationOf(cur.probe),
      ask_terms: { ...cur.probe.ask_terms, timezone: ["timezone", "region", "located"] },
    };
    const report = whatIf(db, { kind: "probe", probe: "schedule_window", configuration: config });
    const saved = saveProbeConfiguration(db, "schedule_window", config, "tester");
    const reports = rescoreAll(db);
    expect(movesOf(reports)).toEqual(predicted(report));
    expect(Object.keys(predicted(report))).toEqual(["timezone"]);
    expectConsistent(db);
    for (const id of runIds(db))
      expect(runScoring(db, id)).toEqual([
        { probeId: "schedule_window", probeVersion: saved.version, lexiconVersion: 0 },
      ]);
  });

  it("bait: moves INJECT reasons, no labels, and the re-score does the same", async () => {
    const db = await demoDb("tune-bait");
    const cur = getProbe(db, "schedule_window");
    if (!cur) throw new Error("no probe");
    const config = {
      ...configurationOf(cur.probe),
      bait: [...cur.probe.bait, "Europe/Berlin", "asia/tokyo"],
    };
    const report = whatIf(db, { kind: "probe", probe: "schedule_window", configuration: config });
    expect(report.traces.fields).toEqual([]);
    expect(report.traces.reasons.some((m) => m.to.includes("bait"))).toBe(true);
    saveProbeConfiguration(db, "schedule_window", config, "tester");
    const reports = rescoreAll(db);
    expect(movesOf(reports)).toEqual({});
    expect(reports.reduce((n, r) => n + r.changed, 0)).toBe(
      report.traces.reasons.reduce((n, m) => n + m.count, 0),
    );
    expectConsistent(db);
  });
});

describe("random lexicon drafts", () => {
  const words = fc.constantFrom(
    "region",
    "locat*",
    "based",
    "zone",
    "where",
    "local time",
    "which one",
    "user",
    "09:00",
    "time*",
  );
  const entry = fc.record({
    terms: fc.uniqueArray(words, { maxLength: 3 }),
    rule: fc.constantFrom("anywhere" as const, "question" as const),
  });
  const entries = fc.dictionary(fc.constantFrom("timezone", "severity"), entry, { maxKeys: 2 });

  it("the what-if predicts the re-score, which equals a fresh ingest; the reverse restores it", async () => {
    const db = await demoDb("tune-property");
    const start = comparable(db);
    await fc.assert(
      fc.asyncProperty(entries, async (draft) => {
        const report = whatIf(db, { kind: "lexicon", entries: draft });
        saveLexicon(db, draft, { by: "prop" });
        const reports = rescoreAll(db, 11);
        expect(movesOf(reports)).toEqual(predicted(report));
        expect(comparable(db)).toEqual(await freshState(db, draft));
        saveLexicon(db, {}, { by: "prop" });
        rescoreAll(db, 11);
        expect(comparable(db)).toEqual(start);
      }),
      { numRuns: 6 },
    );
    expectConsistent(db);
  });
});
