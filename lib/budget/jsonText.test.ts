import { describe, expect, it } from "vitest";
import { boundValue } from "./boundValue";
import { safeJson } from "./jsonText";
import { readJson } from "./readJson";

describe("safeJson", () => {
  it("says how many entries a bounded value left out, where it left them", async () => {
    const args = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i]));
    const r = await readJson(JSON.stringify({ a: args, b: [1, 2, 3, 4] }), {
      entries: 2,
      nodes: 50,
      depth: 8,
    });
    const out = safeJson(r.value);
    expect(out.entriesCut).toBe(true);
    expect(out.text).toBe(
      '{\n  "a": {\n    "k0": 0,\n    "k1": 1,\n    … 998 more keys\n  },\n  "b": [\n    1,\n    2,\n    … 2 more items\n  ]\n}',
    );
  });

  it("shows a page of entries with the ones before it counted", async () => {
    const r = await readJson("[0,1,2,3,4,5]", { entries: 2, nodes: 10, depth: 8, from: 2 });
    expect(safeJson(r.value, { indent: 0 }).text).toBe("[… 2 items before these,2,3,… 2 more items]");
  });

  it("stops at its own node budget on a value of any size, and counts the rest", () => {
    const big = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i]));
    const out = safeJson({ big }, { maxNodes: 3 });
    expect(out.text).toContain('"k1": 1,\n    … 49,998 more keys');
    expect(out.entriesCut).toBe(true);
  });

  it("bounding a bounded value keeps the first count", async () => {
    const r = await readJson(JSON.stringify(Array.from({ length: 100 }, (_, i) => i)), {
      entries: 10,
      nodes: 10,
      depth: 8,
    });
    expect(safeJson(boundValue(r.value, { entries: 3, nodes: 3, depth: 8 }), { indent: 0 }).text).toBe(
      "[0,1,2,… 97 more items]",
    );
  });

  it("cuts long strings and text, and keeps small values as JSON.stringify writes them", () => {
    expect(safeJson({ a: [1, "x"], b: null }).text).toBe(JSON.stringify({ a: [1, "x"], b: null }, null, 2));
    const s = safeJson({ s: "y".repeat(7_000_000) }, { maxString: 10 });
    expect(s.stringCut).toBe(true);
    expect(s.text).toContain('"yyyyyyyyyy… [cut: 6,999,990 more characters]"');
    expect(safeJson("z".repeat(100), { maxChars: 20 }).charsCut).toBe(true);
  });
});
