import { describe, expect, it } from "vitest";
import { gateLogFigures } from "./gateLogStats";
import { wilson } from "./stats";

const run = (traceCount: number, block: number, unknown: Record<string, number>, mismatch = 0) => ({
  traceCount,
  gate: { allow: traceCount - block, block },
  flags: { gate_mismatch: mismatch },
  gateUnknown: unknown,
  gateConflict: {},
});

describe("gateLogFigures", () => {
  it("adds runs up: the block rate over every decision with its Wilson interval, the most often unknown facts first", () => {
    const f = gateLogFigures([
      run(10, 4, { action_date: 3, user_id: 1 }),
      run(30, 2, { user_id: 2, resource_id: 2, tz: 1 }, 1),
    ]);
    expect(f.decisions).toBe(40);
    expect(f.blocked).toEqual(wilson(6, 40));
    expect(f.mismatches).toBe(1);
    expect(f.unknown).toEqual([
      ["action_date", 3],
      ["user_id", 3],
      ["resource_id", 2],
    ]);
  });

  it("has no rate without decisions", () => {
    expect(gateLogFigures([]).blocked.n).toBe(0);
    expect(gateLogFigures([]).unknown).toEqual([]);
  });
});
