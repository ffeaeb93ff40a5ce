import { describe, expect, it } from "vitest";
import { compareDefaults } from "./CompareForm";

const run = (name: string, model: string, probes = ["schedule_window"]) => ({
  name,
  model,
  probes: probes.map((id) => ({ id })),
});

describe("compareDefaults", () => {
  it("compares the newest run with the previous run of its model that probed the same probes", () => {
    const runs = [
      run("heron/region-29", "heron", ["region_window"]),
      run("heron/nightly-29", "heron"),
      run("plover/nightly-29", "plover"),
      run("heron/nightly-28", "heron"),
    ];
    expect(compareDefaults(runs)).toEqual({ a: "heron/nightly-28", b: "heron/nightly-29" });
  });

  it("falls back to the same model, then to the two newest runs", () => {
    expect(compareDefaults([run("a2", "m", ["x"]), run("a1", "m", ["y"])])).toEqual({ a: "a1", b: "a2" });
    expect(compareDefaults([run("b", "m"), run("a", "n")])).toEqual({ a: "a", b: "b" });
    expect(compareDefaults([run("only", "m")])).toBeNull();
  });
});
