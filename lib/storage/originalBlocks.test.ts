import { describe, expect, it } from "vitest";
import { inflateBlock, packOriginals, sliceOriginal } from "./originalBlocks";

const read = (p: ReturnType<typeof packOriginals>, i: number) => {
  const r = p.refs[i];
  return sliceOriginal(inflateBlock(1, p.blocks[r.block]), r.at, r.len);
};

describe("packOriginals", () => {
  it("gives every original back byte for byte: text as text, bytes that are not UTF-8 as bytes", () => {
    const originals = [
      '{"a":1}',
      '\ufeff{"bom":true}',
      "é ✓ 😀 \u0000 end",
      Buffer.from([0xff, 0xfe, 0x7b, 0x80]),
      new Uint8Array([0x7b, 0x7d]),
      "",
    ];
    const p = packOriginals(originals);
    expect(read(p, 0)).toBe('{"a":1}');
    expect(read(p, 1)).toBe('\ufeff{"bom":true}');
    expect(read(p, 2)).toBe("é ✓ 😀 \u0000 end");
    expect(Buffer.isBuffer(read(p, 3))).toBe(true);
    expect((read(p, 3) as Buffer).equals(Buffer.from([0xff, 0xfe, 0x7b, 0x80]))).toBe(true);
    // Valid UTF-8 given as bytes reads back as text, as ingest would have stored it.
    expect(read(p, 4)).toBe("{}");
    expect(read(p, 5)).toBe("");
  });

  it("stores an original equal to the one before it once, and never mixes groups in a block", () => {
    const line = JSON.stringify({ answers: ["a", "b", "c", "d"], pad: "x".repeat(100) });
    const p = packOriginals([line, line, line, line, "other", line], ["r1", "r1", "r1", "r1", "r1", "r2"]);
    expect(new Set(p.refs.slice(0, 4).map((r) => JSON.stringify(r))).size).toBe(1);
    expect(p.refs[4].at).toBe(Buffer.byteLength(line));
    expect(p.refs[5].block).not.toBe(p.refs[0].block);
    expect(p.blocks).toHaveLength(2);
    for (let i = 0; i < 6; i++) expect(read(p, i)).toBe(i === 4 ? "other" : line);
  });

  it("interleaved groups keep their own blocks; a block closes once it holds blockBytes", () => {
    const originals = Array.from({ length: 200 }, (_, i) => `{"i":${i},"text":"${"w".repeat(i % 37)}"}`);
    const groups = originals.map((_, i) => (i % 3 === 0 ? "a" : "b"));
    const p = packOriginals(originals, groups, 1000);
    expect(p.blocks.length).toBeGreaterThan(4);
    const groupOfBlock = new Map<number, string>();
    p.refs.forEach((r, i) => {
      expect(groupOfBlock.get(r.block) ?? groups[i]).toBe(groups[i]);
      groupOfBlock.set(r.block, groups[i]);
      expect(read(p, i)).toBe(originals[i]);
    });
  });

  it("refuses a reference outside its block and an unknown codec", () => {
    const p = packOriginals(["abc"]);
    const block = inflateBlock(1, p.blocks[0]);
    expect(() => sliceOriginal(block, 2, 5)).toThrow(/outside its block/);
    expect(() => inflateBlock(9, p.blocks[0])).toThrow(/unknown original block codec 9/);
  });
});
