import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitSide, splitWhen2Call, when2callGroup } from "./split";

const FILE = readFileSync(join(__dirname, "../../fixtures/when2call/when2call_test_llm_judge.jsonl"), "utf8");
const lines = FILE.split("\n").filter((l) => l.trim() !== "");
const question = (line: string) => (JSON.parse(line) as { question: string }).question;

describe("splitSide", () => {
  it("is the first byte of the SHA-256 of the group: below 128 learns, else measures", () => {
    // First bytes worked out with Python's hashlib: 175, 141, 202, 227 and 62.
    expect(splitSide("Where are you located?")).toBe("measure");
    expect(splitSide("What is the weather in Tokyo?")).toBe("measure");
    expect(splitSide("a")).toBe("measure");
    expect(splitSide("")).toBe("measure");
    expect(splitSide("b")).toBe("train");
  });

  it("sends about half of all groups each way", () => {
    const sides = fc.sample(fc.string({ minLength: 1 }), { numRuns: 2000, seed: 7 }).map(splitSide);
    const train = sides.filter((s) => s === "train").length;
    expect(train).toBeGreaterThan(850);
    expect(train).toBeLessThan(1150);
  });
});

describe("splitWhen2Call", () => {
  const split = splitWhen2Call(FILE);

  it("puts every record on one side, byte for byte", () => {
    expect(split.errors).toEqual([]);
    expect(split.train.length + split.measure.length).toBe(lines.length);
    expect([...split.train, ...split.measure].sort()).toEqual([...lines].sort());
  });

  it("keeps every group on one side: records asking the same question never straddle", () => {
    const trainQ = new Set(split.train.map(question));
    const measureQ = new Set(split.measure.map(question));
    for (const q of trainQ) expect(measureQ.has(q)).toBe(false);
    // The file asks 14 questions twice (with and without their tool): each pair stays together.
    const where = new Map<string, Set<string>>();
    for (const l of split.train)
      where.set(question(l), new Set([...(where.get(question(l)) ?? []), "train"]));
    for (const l of split.measure)
      where.set(question(l), new Set([...(where.get(question(l)) ?? []), "measure"]));
    const count = new Map<string, number>();
    for (const q of lines.map(question)) count.set(q, (count.get(q) ?? 0) + 1);
    const twice = [...count].filter(([, n]) => n > 1).map(([q]) => q);
    expect(twice.length).toBe(14);
    for (const q of twice) expect(where.get(q)?.size).toBe(1);
  });

  it("is deterministic: the same sides in any line order, and for any subset of the file", () => {
    const shuffled = [...lines].reverse();
    const again = splitWhen2Call(shuffled.join("\r\n"));
    expect([...again.train].sort()).toEqual([...split.train].sort());
    expect([...again.measure].sort()).toEqual([...split.measure].sort());
    const half = splitWhen2Call(lines.filter((_, i) => i % 2 === 0).join("\n"));
    for (const l of half.train) expect(split.train).toContain(l);
    for (const l of half.measure) expect(split.measure).toContain(l);
  });

  it("splits the shipped file roughly in half, held-out records included", () => {
    const held = (ls: string[]) => ls.filter((l) => typeof JSON.parse(l).held_out_param === "string").length;
    expect(split.train.length).toBe(158);
    expect(split.measure.length).toBe(142);
    expect(held(split.train)).toBe(53);
    expect(held(split.measure)).toBe(47);
  });

  it("lists lines without a group and skips blank ones", () => {
    const s = splitWhen2Call(`\uFEFF{"question":"b"}\n\nnot json\n{"question":""}\n[1]\n`);
    expect(s.train).toEqual(['{"question":"b"}']);
    expect(s.errors.map((e) => e.line)).toEqual([3, 4, 5]);
    expect(s.errors[0].reason).toMatch(/^not JSON/);
    expect(when2callGroup({ question: "x" })).toBe("x");
  });
});
