import { describe, expect, it } from "vitest";
import { groupOfProbe, groupProbes, type ProbeOrigin } from "./probeGroups";

const w2c = (i: number, runs = ["when2call-calibration"]): ProbeOrigin => ({
  id: `when2call:q${String(i).padStart(3, "0")}`,
  origin: "when2call",
  runs,
});

describe("groupProbes", () => {
  it("puts 300 When2Call probes of one run in one group beside the built-in probe", () => {
    const probes = [
      { id: "schedule_window", origin: "builtin", runs: ["a", "b"] },
      ...Array.from({ length: 300 }, (_, i) => w2c(i)),
    ];
    const groups = groupProbes(probes);
    expect(groups.map((g) => [g.key, g.label, g.probes.length])).toEqual([
      ["builtin", "Built-in", 1],
      ["run:when2call-calibration", "When2Call · run when2call-calibration", 300],
    ]);
    expect(groups[0].runs).toEqual(["a", "b"]);
    expect(groups[1].runs).toEqual(["when2call-calibration"]);
    expect(groups[1].kind).toBe("run");
  });

  it("groups inline probes by their run, or by their source when they span runs or have none", () => {
    const groups = groupProbes([
      { id: "p1", origin: "inline:nightly-3", runs: ["nightly-3"] },
      { id: "p2", origin: "inline:nightly-3", runs: ["nightly-3", "nightly-3"] },
      { id: "p3", origin: "inline:shared", runs: ["r1", "r2"] },
      { id: "p4", origin: "inline:shared", runs: [] },
      { id: "p5", origin: "when2call", runs: [] },
      { id: "p6", origin: "when2call", runs: ["nightly-3"] },
    ]);
    expect(groups.map((g) => [g.key, g.kind, g.label, g.probes])).toEqual([
      ["run:nightly-3", "run", "Inline and When2Call · run nightly-3", ["p1", "p2", "p6"]],
      ["inline:shared", "inline", "Inline in shared", ["p3", "p4"]],
      ["when2call", "when2call", "When2Call", ["p5"]],
    ]);
    expect(groups[1].runs).toEqual(["r1", "r2"]);
  });

  it("keeps each probe file a group of its own whatever runs its probes are in", () => {
    const groups = groupProbes([
      { id: "b", origin: "file:team.json", runs: ["r1"] },
      { id: "a", origin: "file:team.json", runs: [] },
      { id: "c", origin: "file:other.jsonl", runs: ["r1"] },
      { id: "d", origin: "demo", runs: [] },
    ]);
    expect(groups.map((g) => [g.key, g.label, g.probes])).toEqual([
      ["file:other.jsonl", "From file other.jsonl", ["c"]],
      ["file:team.json", "From file team.json", ["a", "b"]],
      ["origin:demo", "Origin demo", ["d"]],
    ]);
  });

  it("puts every probe in exactly one group", () => {
    const probes: ProbeOrigin[] = [
      { id: "x", origin: "builtin", runs: [] },
      { id: "y", origin: "inline:s", runs: ["r"] },
      { id: "z", origin: "file:f", runs: ["r"] },
      w2c(1, ["r", "q"]),
    ];
    const groups = groupProbes(probes);
    const all = groups.flatMap((g) => g.probes).sort();
    expect(all).toEqual(probes.map((p) => p.id).sort());
    expect(groupOfProbe(groups, "y")?.key).toBe("run:r");
    expect(groupOfProbe(groups, "when2call:q001")?.key).toBe("when2call");
    expect(groupOfProbe(groups, "nope")).toBeUndefined();
    expect(groupProbes([])).toEqual([]);
  });
});
