import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundValue } from "./boundValue";
import { CUT, type Cut, cutOf, type JsonBudget } from "./jsonBudget";
import { readJson, readJsonSync } from "./readJson";

/** A value with its cuts spelled out, so two bounded values compare cuts too. */
function spell(v: unknown): unknown {
  if (typeof v !== "object" || v === null) return v;
  const cut = cutOf(v);
  const body = Array.isArray(v)
    ? v.map(spell)
    : Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, spell(x)]));
  return cut ? { body, cut } : body;
}

const budgetArb: fc.Arbitrary<JsonBudget> = fc.record({
  entries: fc.integer({ min: 0, max: 6 }),
  nodes: fc.integer({ min: 0, max: 30 }),
  depth: fc.integer({ min: 0, max: 6 }),
  keep: fc.option(fc.constantFrom(new Set(["a"]), new Set(["b", "__proto__"]), new Set<string>()), {
    nil: undefined,
  }),
  keepEntries: fc.integer({ min: 0, max: 4 }),
  keepDepth: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  from: fc.integer({ min: 0, max: 3 }),
});

const keyArb = fc.constantFrom("a", "b", "c", "__proto__", 'q"uote', "é", "k\\n", "");
const jsonArb = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string(),
    fc.constantFrom("", 'with "quotes" and \\ slashes', "ünïcødé 💥", "\u0000\u001f"),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 6 }),
    fc.dictionary(keyArb, tie("value"), { maxKeys: 6 }),
  ),
})).value;

describe("readJson", () => {
  it("keeps exactly what boundValue keeps of the parsed value, cuts and counts included", async () => {
    await fc.assert(
      fc.asyncProperty(jsonArb, budgetArb, fc.boolean(), async (v, budget, pretty) => {
        const text = JSON.stringify(v, null, pretty ? 2 : 0);
        const expected = spell(boundValue(JSON.parse(text), budget));
        const read = await readJson(text, budget);
        expect(spell(read.value)).toEqual(expected);
        expect(spell(readJsonSync(text, budget).value)).toEqual(expected);
      }),
      { numRuns: 1500 },
    );
  });

  it("is JSON.parse when the budget holds everything", async () => {
    const all: JsonBudget = { entries: 1e9, nodes: 1e9, depth: 1e9 };
    await fc.assert(
      fc.asyncProperty(jsonArb, async (v) => {
        const text = JSON.stringify(v);
        const r = await readJson(`${text} `, all, { spans: new Set() });
        expect(r.value).toEqual(JSON.parse(text));
        expect(r.cut).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("counts what it leaves out, and keeps keys named in `keep` wherever they are", async () => {
    const args: Record<string, number> = {};
    for (let i = 0; i < 10_000; i++) args[`k${i}`] = i;
    args.timezone = 1;
    const text = JSON.stringify({ tool_calls: [{ name: "x", arguments: args }], fenced: false });
    const r = await readJson(text, { entries: 5, nodes: 100, depth: 64, keep: new Set(["timezone"]) });
    const v = r.value as { tool_calls: { arguments: Record<string, number> }[]; fenced: boolean };
    const a = v.tool_calls[0].arguments;
    expect(Object.keys(a)).toEqual(["k0", "k1", "k2", "k3", "k4", "timezone"]);
    expect(cutOf(a)).toEqual({ total: 10_001, shown: 6, from: 0 } satisfies Cut);
    expect(v.fenced).toBe(false);
    expect(r.cut).toBe(true);
  });

  it("pages with `from` and reports the spans of top-level keys", async () => {
    const text = '{"a": [1,2,3], "raw": {"x": [1, {"y": "}"}]}, "b": "\\"]"}';
    const r = await readJson(text, { entries: 1, nodes: 10, depth: 8 }, { spans: new Set(["raw", "b"]) });
    const [s, e] = r.spans.get("raw") as [number, number];
    expect(JSON.parse(text.slice(s, e))).toEqual({ x: [1, { y: "}" }] });
    const [bs, be] = r.spans.get("b") as [number, number];
    expect(JSON.parse(text.slice(bs, be))).toBe('"]');
    const page = await readJson("[0,1,2,3,4,5,6]", { entries: 2, nodes: 10, depth: 8, from: 3 });
    expect(page.value).toEqual([3, 4]);
    expect(cutOf(page.value)).toEqual({ total: 7, shown: 2, from: 3 });
  });

  it("reads a prefix: the cut end closes every open container with an unknown total", () => {
    const text = JSON.stringify({
      text: 'hello \\"world" and more',
      tool_calls: [{ name: "n", arguments: { a: 1 } }],
    });
    for (let n = 0; n <= text.length; n++) {
      const r = readJsonSync(text.slice(0, n), { entries: 50, nodes: 50, depth: 8 }, { prefix: true });
      if (n === text.length) expect(r.value).toEqual(JSON.parse(text));
      else expect(r.cut).toBe(true);
    }
    const r = readJsonSync(text.slice(0, 15), { entries: 50, nodes: 50, depth: 8 }, { prefix: true });
    expect(r.value).toEqual({ text: "hello " });
    expect(cutOf(r.value)).toEqual({ total: null, shown: 1, from: 0 });
  });

  it("rejects text that is not JSON where it reads, with the position", async () => {
    for (const bad of ["", "{", '{"a" 1}', "[1,]x", "nul", "[1 2]", '{"a":1}}']) {
      await expect(readJson(bad, { entries: 10, nodes: 10, depth: 8 }, { spans: new Set() })).rejects.toThrow(
        SyntaxError,
      );
    }
  });

  it("makes __proto__ an own key, as JSON.parse does", async () => {
    const r = await readJson(
      '{"__proto__": {"polluted": 1}, "a": 2}',
      { entries: 9, nodes: 9, depth: 9 },
      {
        spans: new Set(),
      },
    );
    expect(Object.keys(r.value as object)).toEqual(["__proto__", "a"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(r.value)).toBe(Object.prototype);
  });

  it("lets other work run while it passes over a big text, and never parses what it cuts", async () => {
    const text = `{"a":{${Array.from({ length: 300_000 }, (_, i) => `"k${i}":[${i}]`).join(",")}},"b":1}`;
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const r = await readJson(text, { entries: 3, nodes: 10, depth: 8 });
    clearInterval(timer);
    expect(Object.keys((r.value as { a: object }).a)).toHaveLength(3);
    expect(cutOf((r.value as { a: object }).a)?.total).toBe(300_000);
    expect((r.value as { b: number }).b).toBe(1);
    expect(ticks).toBeGreaterThan(0);
  });

  it("refuses long texts in the synchronous form", () => {
    expect(() => readJsonSync(`"${"x".repeat(300_000)}"`, { entries: 1, nodes: 1, depth: 1 })).toThrow(
      RangeError,
    );
  });

  it("marks cuts with a symbol that JSON.stringify and Object.keys ignore", () => {
    const v = boundValue({ a: 1, b: 2 }, { entries: 1, nodes: 9, depth: 9 }) as Record<string, unknown>;
    expect(JSON.stringify(v)).toBe('{"a":1}');
    expect(Object.keys(v)).toEqual(["a"]);
    expect((v as { [CUT]?: Cut })[CUT]).toEqual({ total: 2, shown: 1, from: 0 });
  });
});

describe("locate", () => {
  it("finds a part by its pointer, inside JSON strings too, and says when nothing is there", async () => {
    const { locate, parsePointer, toPointer } = await import("./pointer");
    const args = JSON.stringify({ "a/b": [10, { "~x": "deep" }] });
    const text = JSON.stringify({ tool_calls: [{ name: "n", arguments: args }] });
    const path = parsePointer(toPointer(["tool_calls", 0, "arguments", "a/b", 1, "~x"])) as string[];
    expect(path).toEqual(["tool_calls", "0", "arguments", "a/b", "1", "~x"]);
    const at = await locate(text, path);
    expect(at && JSON.parse(at.text.slice(at.start, at.end))).toBe("deep");
    expect(at?.inString).toBe(true);
    expect(await locate(text, ["tool_calls", "1"])).toBeNull();
    expect(await locate(text, ["tool_calls", "0", "name", "x"])).toBeNull();
    expect(parsePointer("no-slash")).toBeNull();
  });
});
