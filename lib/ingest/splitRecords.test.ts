import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OVERSIZED_HEAD_BYTES, RecordSplitter, type SplitRecord } from "./splitRecords";

interface Rec {
  line: number;
  text: string;
  value?: unknown;
  error?: string;
  end: number;
}

const plain = (r: SplitRecord): Rec => {
  const out: Rec = { line: r.line, text: r.bytes.toString("utf8"), end: r.end };
  if ("value" in r) out.value = r.value;
  if (r.error !== undefined) out.error = r.error;
  return out;
};

/** Splits the input, fed in the given chunk sizes (one chunk when none). */
function split(input: string | Buffer, max?: number, chunks?: number[]): Rec[] {
  const buf = typeof input === "string" ? Buffer.from(input, "utf8") : input;
  const s = new RecordSplitter(max);
  const out: SplitRecord[] = [];
  let at = 0;
  for (const n of chunks ?? []) {
    if (at >= buf.length) break;
    out.push(...s.push(buf.subarray(at, at + n)));
    at += n;
  }
  if (at < buf.length) out.push(...s.push(buf.subarray(at)));
  out.push(...s.end());
  return out.map(plain);
}

/** What the seed runner prints: `print(json.dumps({"label": ..., "trace": ...}, indent=2))`. */
const seedPrint = (label: string, trace: unknown) => `${JSON.stringify({ label, trace }, null, 2)}\n`;

describe("single lines", () => {
  it("makes one record per line, with its line number, bytes, value and end offset", () => {
    expect(split('{"a":1}\n{"b":"x"}\n')).toEqual([
      { line: 1, text: '{"a":1}', value: { a: 1 }, end: 8 },
      { line: 2, text: '{"b":"x"}', value: { b: "x" }, end: 18 },
    ]);
  });

  it("skips blank and whitespace-only lines but keeps counting them", () => {
    const recs = split('\n   \n{"a":1}\n\t\r\n\n{"b":2}');
    expect(recs.map((r) => [r.line, r.value])).toEqual([
      [3, { a: 1 }],
      [6, { b: 2 }],
    ]);
    expect(recs[1].end).toBe(Buffer.byteLength('\n   \n{"a":1}\n\t\r\n\n{"b":2}'));
  });

  it("drops a byte-order mark at the start from the record's bytes", () => {
    const recs = split('\uFEFF{"a":1}\n{"b":2}\n');
    expect(recs[0]).toEqual({ line: 1, text: '{"a":1}', value: { a: 1 }, end: 11 });
    expect(recs[1].value).toEqual({ b: 2 });
  });

  it("accepts CRLF endings; a record's bytes exclude the final CR", () => {
    const recs = split('{"a":1}\r\n{"b":2}\r\n');
    expect(recs).toEqual([
      { line: 1, text: '{"a":1}', value: { a: 1 }, end: 9 },
      { line: 2, text: '{"b":2}', value: { b: 2 }, end: 18 },
    ]);
  });

  it("keeps a line that is JSON but not an object as a record, value and all", () => {
    const recs = split('[1,2]\n42\n"x"\nnull\n');
    expect(recs.map((r) => r.value)).toEqual([[1, 2], 42, "x", null]);
    expect(recs.every((r) => r.error === undefined)).toBe(true);
  });

  it("rejects a line that is not JSON, outside a gathered record, with `not JSON: ...`", () => {
    const recs = split('{"a":1}\nhello there\n{"b":2}\n');
    expect(recs).toHaveLength(3);
    expect(recs[1].line).toBe(2);
    expect(recs[1].text).toBe("hello there");
    expect(recs[1].error).toMatch(/^not JSON: /);
    expect("value" in recs[1]).toBe(false);
    expect(recs[2].value).toEqual({ b: 2 });
  });

  it("rejects a single broken line that starts with `{` as not JSON", () => {
    const recs = split('{"a": }\n{"b":2}\n');
    expect(recs[0]).toMatchObject({ line: 1, text: '{"a": }' });
    expect(recs[0].error).toMatch(/^not JSON: /);
    expect(recs[1]).toMatchObject({ line: 2, value: { b: 2 } });
  });
});

describe("pretty-printed records", () => {
  const a = seedPrint("INJECT", { tool_call: { arguments: { user_id: "u_9182", timezone: "UTC" } } });
  const b = seedPrint("ASK", { text: "Which timezone should I use?" });
  const c = seedPrint("OMIT", { tool_call: { arguments: { user_id: "u_9182" } } });

  it("reads several concatenated seed-runner prints, each numbered by its start line", () => {
    const input = a + b + c;
    const recs = split(input);
    const aLines = a.split("\n").length - 1;
    const bLines = b.split("\n").length - 1;
    expect(recs.map((r) => r.line)).toEqual([1, 1 + aLines, 1 + aLines + bLines]);
    expect(recs.map((r) => (r.value as { label: string }).label)).toEqual(["INJECT", "ASK", "OMIT"]);
    expect(recs[0].text).toBe(a.slice(0, -1));
    expect(recs.map((r) => r.end)).toEqual([a.length, a.length + b.length, input.length]);
  });

  it("keeps inner CRLF line endings but drops the final CR", () => {
    const crlf = b.replaceAll("\n", "\r\n");
    const [r] = split(crlf);
    expect(r.value).toEqual({ label: "ASK", trace: { text: "Which timezone should I use?" } });
    expect(r.text).toBe(crlf.slice(0, -2));
    expect(r.end).toBe(crlf.length);
  });

  it("rejects a broken object at the next column-0 `{`, then reads the good one", () => {
    const broken = '{\n  "label": "ASK",\n  "trace": {\n';
    const recs = split(broken + b);
    expect(recs).toHaveLength(2);
    expect(recs[0]).toEqual({
      line: 1,
      text: broken.slice(0, -1),
      error: "the record is not complete JSON before the next record starts",
      end: broken.length,
    });
    expect(recs[1]).toMatchObject({ line: 4, value: { label: "ASK" }, end: broken.length + b.length });
  });

  it("rejects an object left unterminated at the end of the input", () => {
    const recs = split(`${b}{\n  "label": "OMIT",\n  "trace": {`);
    expect(recs).toHaveLength(2);
    expect(recs[1].line).toBe(b.split("\n").length);
    expect(recs[1].error).toBe("the record is not complete JSON at the end of the input");
    expect(recs[1].text).toBe('{\n  "label": "OMIT",\n  "trace": {');
  });

  it("gathers lines that are not column-0 `{` into the open record", () => {
    const recs = split('{"a":\n[1,\n2]}\n');
    expect(recs).toEqual([{ line: 1, text: '{"a":\n[1,\n2]}', value: { a: [1, 2] }, end: 14 }]);
  });
});

describe("the size limit", () => {
  const MAX = 64;
  const big = `{"pad":"${"x".repeat(200)}"}`;

  it("accepts a line of exactly the limit and rejects one byte more", () => {
    const exact = `{"p":"${"y".repeat(MAX - 8)}"}`;
    expect(exact.length).toBe(MAX);
    expect(split(`${exact}\n`, MAX)[0].value).toEqual({ p: "y".repeat(MAX - 8) });
    const over = `{"p":"${"y".repeat(MAX - 7)}"}`;
    expect(split(`${over}\n`, MAX)[0].error).toBe(`the line is ${MAX + 1} bytes, over the limit of ${MAX}`);
  });

  it("rejects a long line without holding it, and the lines after it survive", () => {
    const input = Buffer.from(`{"a":1}\n${big}\n{"b":2}\n`);
    const s = new RecordSplitter(MAX);
    const out: SplitRecord[] = [];
    let held = 0;
    for (let i = 0; i < input.length; i += 7) {
      out.push(...s.push(input.subarray(i, i + 7)));
      held = Math.max(held, (s as unknown as { pendingSize: number }).pendingSize);
    }
    out.push(...s.end());
    expect(held).toBeLessThanOrEqual(MAX);
    const recs = out.map(plain);
    expect(recs).toEqual([
      { line: 1, text: '{"a":1}', value: { a: 1 }, end: 8 },
      {
        line: 2,
        // Its first bytes (up to the limit) stay as the rejected record's raw text.
        text: big.slice(0, MAX),
        error: `the line is ${big.length} bytes, over the limit of ${MAX}`,
        end: 8 + big.length + 1,
      },
      { line: 3, text: '{"b":2}', value: { b: 2 }, end: input.length },
    ]);
  });

  it("rejects a long last line with no line ending", () => {
    const recs = split(`{"a":1}\n${big}`, MAX, [3, 9, 40]);
    expect(recs[1]).toMatchObject({ line: 2, text: big.slice(0, MAX), end: 8 + big.length });
    expect(recs[1].error).toMatch(/over the limit of 64/);
  });

  it("rejects a gathered record that grows past the limit, once, and the next record survives", () => {
    const lines = ["{", ...Array.from({ length: 10 }, (_, i) => `  "k${i}": "vvvvvvvv",`), '  "z": 1', "}"];
    const input = `${lines.join("\n")}\n{"b":2}\n`;
    const recs = split(input, MAX);
    expect(recs).toHaveLength(2);
    expect(recs[0]).toMatchObject({
      line: 1,
      text: input.slice(0, MAX),
      error: `the record is over the limit of ${MAX} bytes`,
    });
    expect(recs[0].end).toBe(input.length - '{"b":2}\n'.length);
    expect(recs[1]).toMatchObject({ line: 14, value: { b: 2 } });
  });

  it("counts a long line inside a gathered record against that record: one rejection", () => {
    const input = `{\n  "a": "${"x".repeat(100)}",\n  "b": 1\n}\n{"c":3}\n`;
    const recs = split(input, MAX, [5, 5, 5]);
    expect(recs[0].text).toBe(input.slice(0, MAX));
    expect(recs.map((r) => [r.line, r.error ?? r.value])).toEqual([
      [1, `the record is over the limit of ${MAX} bytes`],
      [5, { c: 3 }],
    ]);
  });

  it("keeps no byte-order mark in the text of an oversized first line", () => {
    const recs = split(`\uFEFF${big}\n{"b":2}\n`, MAX, [10, 10]);
    expect(recs[0]).toMatchObject({ line: 1, text: big.slice(0, MAX - 3) });
    expect(recs[1]).toMatchObject({ line: 2, value: { b: 2 } });
  });

  it("keeps at most 64 KiB of a record past a large limit", () => {
    const huge = `{"pad":"${"z".repeat(300_000)}"}`;
    const recs = split(`${huge}\n{"b":2}\n`, 200_000, [65_536]);
    expect(recs[0].text.length).toBe(OVERSIZED_HEAD_BYTES);
    expect(recs[0].text).toBe(huge.slice(0, OVERSIZED_HEAD_BYTES));
    expect(recs[1]).toMatchObject({ line: 2, value: { b: 2 } });
  });
});

describe("chunk boundaries", () => {
  const PIECES = [
    '{"a":1}\n',
    '{"s":"x y"}\r\n',
    '{"u":"ü€😀"}\n',
    "\n",
    "  \t\n",
    "[1,2]\n",
    "not json at all\n",
    '{"a": }\n',
    '{\n  "broken": [1,\n',
    seedPrint("ASK", { text: "Which time zone?" }),
    seedPrint("INJECT", { tool_call: { arguments: { timezone: "UTC" } } }).replaceAll("\n", "\r\n"),
    `{"pad":"${"z".repeat(90)}"}\n`,
    `{\n  "big": "${"q".repeat(80)}"\n}\n`,
  ];
  const inputArb = fc
    .record({
      bom: fc.boolean(),
      pieces: fc.array(fc.constantFrom(...PIECES), { maxLength: 14 }),
      tail: fc.constantFrom("", '{"t":1}', "{\n", "tail"),
    })
    .map(({ bom, pieces, tail }) => Buffer.from(`${bom ? "\uFEFF" : ""}${pieces.join("")}${tail}`));

  it("gives the same records however the input is cut into chunks", () => {
    fc.assert(
      fc.property(inputArb, fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 60 }), (buf, cuts) => {
        const whole = split(buf, 64);
        expect(split(buf, 64, cuts)).toEqual(whole);
        // Every record ends inside the input, in order.
        for (let i = 1; i < whole.length; i++) expect(whole[i].end).toBeGreaterThanOrEqual(whole[i - 1].end);
        if (whole.length > 0) expect(whole[whole.length - 1].end).toBeLessThanOrEqual(buf.length);
      }),
      { numRuns: 300 },
    );
  });

  it("gives the same records fed one byte at a time", () => {
    const buf = Buffer.from(`\uFEFF${PIECES.join("")}{"t":1}`);
    expect(split(buf, 64, Array(buf.length).fill(1))).toEqual(split(buf, 64));
  });
});

/**
 * DESIGN.md's rule, read literally and slowly: a line that parses alone is a record; a column-0
 * `{` opens one that runs until the text gathered parses (tried at every line), or until the next
 * column-0 `{`, or the end. No size limit, no byte-order mark, `\n` endings only.
 */
function byTheRule(input: string): { line: number; text: string; ok: boolean }[] {
  const lines = input.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const parses = (t: string) => {
    try {
      JSON.parse(t);
      return true;
    } catch {
      return false;
    }
  };
  const out: { line: number; text: string; ok: boolean }[] = [];
  let open: { line: number; parts: string[] } | null = null;
  lines.forEach((l, i) => {
    if (open && l.startsWith("{")) {
      out.push({ line: open.line, text: open.parts.join("\n"), ok: false });
      open = null;
    }
    if (open) {
      open.parts.push(l);
      if (parses(open.parts.join("\n"))) {
        out.push({ line: open.line, text: open.parts.join("\n"), ok: true });
        open = null;
      }
      return;
    }
    if (l.trim() === "") return;
    if (parses(l)) out.push({ line: i + 1, text: l, ok: true });
    else if (l.startsWith("{")) open = { line: i + 1, parts: [l] };
    else out.push({ line: i + 1, text: l, ok: false });
  });
  if (open !== null) {
    const o = open as { line: number; parts: string[] };
    out.push({ line: o.line, text: o.parts.join("\n"), ok: false });
  }
  return out;
}

describe("gathered records, against the rule read literally", () => {
  // Lines that stress the scanner: braces and quotes inside strings, escapes, closes followed by text.
  const LINES = [
    "{",
    "}",
    "  }",
    "}   ",
    "} trailing",
    '  "a": "}",',
    '  "b": "\\"{",',
    '  "c": "\\\\",',
    '  "d": "open',
    '  "e": [1, {"f": "]"}],',
    '  "g": 1',
    "  ]",
    "  [",
    '{"whole": "line"}',
    '{"x": "}"}',
    "  {",
    "not json",
    "",
    '  "h": "\\u007d"',
    "  },",
    "{}}",
  ];
  it("gives the same records as trying every line, on random mixes of those lines", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...LINES), { maxLength: 30 }), (ls) => {
        const input = `${ls.join("\n")}\n`;
        const got = split(input, 1 << 20).map((r) => ({
          line: r.line,
          text: r.text,
          ok: r.error === undefined,
        }));
        expect(got).toEqual(byTheRule(input));
      }),
      { numRuns: 2000 },
    );
  });

  /** The quadratic case of old: a record that does not parse, and many indented lines ending in `}`. */
  const quadratic = (lines: number) =>
    `{"broken": \n${Array.from({ length: lines }, (_, i) => `  {"k${i}": ${i}}`).join("\n")}\n{"next": 1}\n`;

  it("parses each byte of a gathered record at most once, at every size (linear work)", () => {
    for (const n of [100, 1_000, 10_000, 50_000]) {
      const input = quadratic(n);
      const s = new RecordSplitter(64 << 20);
      const recs = [...s.push(Buffer.from(input)), ...s.end()];
      expect(recs.map((r) => r.line)).toEqual([1, n + 2]);
      expect(recs[0].error).toBe("the record is not complete JSON before the next record starts");
      expect(s.gatheredParsedBytes).toBeLessThanOrEqual(input.length);
    }
  });

  it("parses a pretty-printed record once, however many of its lines end in `}`", () => {
    for (const n of [10, 1_000, 20_000]) {
      const value = { items: Array.from({ length: n }, (_, i) => ({ i, s: '}{"' })) };
      const input = `${JSON.stringify(value, null, 2)}\n`;
      const s = new RecordSplitter(64 << 20);
      const recs = [...s.push(Buffer.from(input)), ...s.end()];
      expect(recs).toHaveLength(1);
      expect(recs[0].value).toEqual(value);
      expect(s.gatheredParsedBytes).toBe(input.length - 1);
    }
  });
});
