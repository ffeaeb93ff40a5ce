import { describe, expect, it } from "vitest";
import type { FieldCounts, RunSummary } from "@/db/queries/runs";
import { ANY_FIELD } from "@/lib/ingest/tags";
import { injectSortKey, sortableFields, sortRuns } from "./sort";

function field(name: string, inject: number, n: number): FieldCounts {
  return {
    field: name,
    n,
    labels: { INJECT: inject, ASK: n - inject, OMIT: 0, COPY: 0, DRIFT: 0, ERROR: 0 },
    reasons: {},
    human: { agree: 0, disagree: 0 },
    recorded: { agree: 0, disagree: 0 },
    reviews: { reviewed: 0, corrects: 0, confirms: 0 },
  };
}

let nextId = 1;
function run(name: string, fields: FieldCounts[]): RunSummary {
  return {
    id: nextId++,
    name,
    model: "m",
    params: null,
    kind: "probe",
    traceCount: Math.max(0, ...fields.map((f) => f.n)),
    rejectedCount: 0,
    mismatchCount: 0,
    createdAt: "2026-11-29T00:00:00Z",
    updatedAt: "2026-11-29T00:00:00Z",
    firstStartedAt: null,
    lastStartedAt: null,
    date: "2026-11-29T00:00:00Z",
    probes: [{ id: "schedule_window", n: 1 }],
    fields,
    flags: {},
    fieldFlags: {},
    gate: {},
    tools: {},
    gateUnknown: {},
    gateConflict: {},
  };
}

const names = (runs: RunSummary[]) => runs.map((r) => r.name);

describe("sorting runs by INJECT rate", () => {
  it("ranks a 4-trace run below 150-trace runs with a lower point rate but a surer one", () => {
    const tiny = run("tiny", [field("timezone", 2, 4)]); // 50%, low end 15%
    const big = run("big", [field("timezone", 60, 150)]); // 40%, low end 32%
    const clean = run("clean", [field("timezone", 3, 150)]); // 2%, low end 0.7%
    expect(names(sortRuns([tiny, clean, big], "inject", "timezone"))).toEqual(["big", "tiny", "clean"]);
    expect(injectSortKey(tiny, "timezone")).toBeCloseTo(0.15, 2);
    expect(injectSortKey(big, "timezone")).toBeCloseTo(0.325, 2);
  });

  it("sorts on the field chosen, not the first one, and puts runs without it last", () => {
    const a = run("a", [field("timezone", 90, 100), field("severity", 5, 100)]);
    const b = run("b", [field("timezone", 10, 100), field("severity", 80, 100)]);
    const c = run("c", [field("location", 30, 100)]);
    expect(names(sortRuns([a, b, c], "inject", "timezone"))).toEqual(["a", "b", "c"]);
    expect(names(sortRuns([a, b, c], "inject", "severity"))).toEqual(["b", "a", "c"]);
    expect(injectSortKey(c, "severity")).toBe(-1);
    // Every field summed: a 95/200, b 90/200, c 30/100.
    expect(names(sortRuns([c, b, a], "inject", ANY_FIELD))).toEqual(["a", "b", "c"]);
  });

  it("offers the fields several runs probe, timezone first, then every field summed", () => {
    const runs = [
      run("a", [field("timezone", 1, 2), field("severity", 1, 2)]),
      run("b", [field("severity", 1, 2), field("timezone", 1, 2), field("only_b", 1, 2)]),
    ];
    expect(sortableFields(runs)).toEqual(["timezone", "severity", ANY_FIELD]);
    expect(sortableFields(runs, "only_b")).toEqual(["timezone", "severity", "only_b", ANY_FIELD]);
  });
});
