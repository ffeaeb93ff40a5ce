import { describe, expect, it } from "vitest";
import { groupProbes } from "../probeGroups";
import {
  agreementByGroup,
  agreementByModel,
  agreementByProbeField,
  cellTargets,
  type LabelledCount,
  runPageHref,
} from "./agreementView";

const c = (
  run: string,
  probeId: string,
  field: string,
  ours: string,
  human: string,
  n: number,
  model = "m",
) => ({ run, model, probeId, field, ours, human, n }) satisfies LabelledCount;

const counts = [
  c("night-1", "schedule_window", "timezone", "DRIFT", "ASK", 3),
  c("night-1", "schedule_window", "timezone", "ASK", "ASK", 5),
  c("night-2", "schedule_window", "timezone", "DRIFT", "ASK", 1, "other"),
  c("night-2", "schedule_window", "severity", "OMIT", "OMIT", 9, "other"),
  c("w2c", "when2call:a", "city", "DRIFT", "DRIFT", 2),
  c("w2c", "when2call:b", "date", "ASK", "DRIFT", 1),
];
const groups = groupProbes([
  { id: "schedule_window", origin: "builtin", runs: ["night-1", "night-2"] },
  { id: "when2call:a", origin: "when2call", runs: ["w2c"] },
  { id: "when2call:b", origin: "when2call", runs: ["w2c"] },
]);

describe("agreement cut by group, probe and field, model", () => {
  it("groups inline probes by their run, as the probe filter does", () => {
    const g = agreementByGroup(counts, groups);
    expect(g.map((x) => [x.group.key, x.summary.agree, x.summary.total])).toEqual([
      ["builtin", 14, 18],
      ["run:w2c", 2, 3],
    ]);
  });

  it("lists probes and fields with the most disagreements first", () => {
    expect(
      agreementByProbeField(counts).map((x) => [
        x.key.replace("\u0000", " "),
        x.summary.total - x.summary.agree,
      ]),
    ).toEqual([
      ["schedule_window timezone", 4],
      ["when2call:b date", 1],
      ["schedule_window severity", 0],
      ["when2call:a city", 0],
    ]);
    expect(agreementByModel(counts).map((x) => [x.key, x.summary.total])).toEqual([
      ["m", 11],
      ["other", 10],
    ]);
  });

  it("finds where a cell's fields are, and links the run page filtered to them", () => {
    expect(cellTargets(counts, "DRIFT", "ASK")).toEqual([
      { run: "night-1", probeId: "schedule_window", field: "timezone", n: 3 },
      { run: "night-2", probeId: "schedule_window", field: "timezone", n: 1 },
    ]);
    expect(cellTargets(counts, "COPY", "ASK")).toEqual([]);
    expect(
      runPageHref({ run: "tern/nightly 1", probeId: "schedule_window", field: "timezone" }, "DRIFT", "ASK"),
    ).toBe("/runs/tern%2Fnightly%201?field=timezone&label=DRIFT&human=ASK&probe=schedule_window");
  });
});
