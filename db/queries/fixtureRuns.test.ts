import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { builtinProbes } from "../../lib/probe/builtin";
import type { Probe } from "../../lib/probe/schema";
import type { Db } from "../client";
import { fixtureDb } from "../testing/fixtures";
import { listReruns, rerunAll, rerunSet } from "./fixtureRuns";
import { addTraceFields } from "./fixtures";
import { saveProbe } from "./probes";

let db: Db;
let ids: Map<string, number>;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, ids, cleanup } = await fixtureDb("fixture-runs"));
});
afterEach(() => cleanup());

const id = (ext: string) => ids.get(ext) as number;
const sw = builtinProbes().get("schedule_window") as Probe;

function curate() {
  addTraceFields(db, "regressions", "ana", [
    { traceId: id("drift-q"), field: "timezone", expected: "ASK" },
    { traceId: id("ask"), field: "timezone", expected: "ASK" },
    { traceId: id("utc"), field: "timezone", expected: "INJECT" },
    { traceId: id("drift"), field: "timezone", expected: "DRIFT" },
  ]);
}

describe("re-running a set", () => {
  it("keeps the seed green under the default configuration", () => {
    const r = rerunSet(db, "seed", "cli");
    expect(r.run).toMatchObject({ total: 4, passed: 4, failed: 0, added: 4, broke: 0, fixed: 0 });
    expect(r.run.scorerVersion).toMatch(/^assumeprobe@\S+ schedule_window@1 lexicon@0$/);
    expect(r.run.versions).toMatchObject({ probes: { schedule_window: 1 }, lexicon: 0 });
  });

  it("reports pass/fail with why, new fixtures as new, and flips only after the scorer changed", () => {
    curate();
    const first = rerunSet(db, "regressions", "cli");
    expect(first.run).toMatchObject({ total: 4, passed: 3, failed: 1, added: 4, broke: 0, fixed: 0 });
    expect(first.previous).toBe(null);
    expect(first.failures).toHaveLength(1);
    expect(first.failures[0]).toMatchObject({
      field: "timezone",
      expected: "ASK",
      label: "DRIFT",
      change: "new",
    });
    expect(first.failures[0].why).toMatchObject({
      rule: "no_question",
      terms: ["timezone", "time zone", "which zone"],
    });
    expect(first.flips).toEqual([]);

    const again = rerunSet(db, "regressions", "cli");
    expect(again.run).toMatchObject({ passed: 3, failed: 1, added: 0, broke: 0, fixed: 0 });
    expect(again.previous?.id).toBe(first.run.id);

    // A new fixture between re-runs is new, not a flip.
    addTraceFields(db, "regressions", "ana", [{ traceId: id("omit"), field: "timezone", expected: "OMIT" }]);
    const grown = rerunSet(db, "regressions", "cli");
    expect(grown.run).toMatchObject({ total: 5, added: 1, broke: 0, fixed: 0 });

    // The probe's configuration changes: "region" asks, "which zone" no longer does.
    saveProbe(db, { ...sw, ask_terms: { timezone: ["timezone", "region"] } }, "test");
    const changed = rerunSet(db, "regressions", "cli");
    expect(changed.run.scorerVersion).toContain("schedule_window@2");
    expect(changed.run).toMatchObject({ passed: 5, failed: 0, fixed: 1, broke: 0, added: 0 });
    expect(changed.flips).toEqual([
      expect.objectContaining({ change: "fixed", expected: "ASK", label: "ASK" }),
    ]);

    // And back: the fixed one breaks.
    saveProbe(db, sw, "test");
    const back = rerunSet(db, "regressions", "cli");
    expect(back.run).toMatchObject({ broke: 1, fixed: 0, failed: 1 });
    expect(back.failures[0].change).toBe("broke");

    const history = listReruns(db, (back.set as { id: number }).id);
    expect(history.map((h) => [h.passed, h.total])).toEqual([
      [4, 5],
      [5, 5],
      [4, 5],
      [3, 4],
      [3, 4],
    ]);
  });

  it("puts the scorer against the expected labels: the matrix, precision and recall, kappa", () => {
    curate();
    const r = rerunSet(db, "regressions", "cli");
    const { confusion, labels, kappa } = r.stats;
    const at = (ours: string, human: string) =>
      confusion.cells[confusion.labels.indexOf(ours)][confusion.labels.indexOf(human)];
    expect(at("DRIFT", "ASK")).toBe(1);
    expect(at("ASK", "ASK")).toBe(1);
    expect(labels.find((l) => l.label === "ASK")).toMatchObject({ precision: 1, recall: 0.5 });
    expect(labels.find((l) => l.label === "DRIFT")).toMatchObject({ precision: 0.5, recall: 1 });
    expect(kappa.n).toBe(4);
    expect(kappa.kappa).not.toBe(null);
  });

  it("re-runs every set, the seed first, each stored as its own re-run", () => {
    curate();
    const all = rerunAll(db, "cli");
    expect(all.map((r) => r.set.name)).toEqual(["seed", "regressions"]);
    expect(() => rerunSet(db, "nope", "cli")).toThrow(/no fixture set "nope"/);
  });
});
