import { describe, expect, it } from "vitest";
import { formatDelta } from "./delta";

describe("formatDelta", () => {
  it("shows no change as 0.0 pt, never −0.0 pt", () => {
    expect(formatDelta(0)).toEqual({ arrow: "", text: "0.0 pt" });
    expect(formatDelta(-0)).toEqual({ arrow: "", text: "0.0 pt" });
    // 7/70 − 11/110 is a floating-point speck below zero.
    expect(formatDelta(7 / 70 - 11 / 110)).toEqual({ arrow: "", text: "0.0 pt" });
    expect(formatDelta(-0.0004)).toEqual({ arrow: "", text: "0.0 pt" });
  });

  it("signs and rounds real changes to a tenth of a point", () => {
    expect(formatDelta(0.123)).toEqual({ arrow: "▲", text: "+12.3 pt" });
    expect(formatDelta(-0.0051)).toEqual({ arrow: "▼", text: "−0.5 pt" });
    expect(formatDelta(-1)).toEqual({ arrow: "▼", text: "−100.0 pt" });
  });
});
