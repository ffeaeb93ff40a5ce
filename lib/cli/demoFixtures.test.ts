import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { setSummary } from "../../db/queries/fixtureList";
import { listReruns, rerunReport } from "../../db/queries/fixtureRuns";
import { getProbe, listProbeVersions } from "../../db/queries/probes";
import { ingestPaths, tempDb } from "../../db/testing/ingest";
import { projectRoot } from "../root";
import { loadDemoFixtures } from "./demoFixtures";
import { loadDemoReviews } from "./demoReviews";

const { db, cleanup } = tempDb("demo-fixtures");
afterAll(cleanup);
const demo = join(projectRoot(), "fixtures", "demo");

describe("the demo's fixture set", () => {
  it("is built from reviewed fields, re-run, and re-run again after its own probe's v2 with a flip", async () => {
    await ingestPaths(db, [join(demo, "heron-mini-2026-11-29.jsonl")]);
    loadDemoReviews(db, join(demo, "reviews.json"));
    const r = await loadDemoFixtures(db, join(demo, "fixtures"), (files) => ingestPaths(db, files));
    expect(r).toEqual({ set: "demo-regressions", fixtures: 13 });
    const s = setSummary(db, "demo-regressions");
    expect(s).toMatchObject({ fixtures: 13, stale: false });
    const runs = listReruns(db, s?.id as number);
    expect(runs).toHaveLength(2);
    const [second, first] = runs;
    expect(first).toMatchObject({ total: 13, added: 13, broke: 0, fixed: 0 });
    expect(first.scorerVersion).toContain("region_window@1");
    expect(second).toMatchObject({ total: 13, broke: 1, fixed: 1, added: 0, passed: first.passed });
    expect(second.scorerVersion).toContain("region_window@2");
    const flips = rerunReport(db, second.id)?.flips ?? [];
    expect(flips.map((f) => [f.change, f.probe, f.expected, f.label])).toEqual([
      ["broke", "region_window", "ASK", "DRIFT"],
      ["fixed", "region_window", "ASK", "ASK"],
    ]);
    // The flip comes from the demo probe's own new version, never from a built-in probe's configuration.
    expect(listProbeVersions(db, "region_window").map((v) => [v.version, v.origin])).toEqual([
      [2, "file:region_window.v2.json"],
      [1, "file:region_window.v1.json"],
    ]);
    expect(getProbe(db, "schedule_window")).toMatchObject({ version: 1, builtin: true });
    // The seed was re-run too, and is green.
    expect(setSummary(db, "seed")?.latest).toMatchObject({ passed: 4, total: 4 });
  });
});
