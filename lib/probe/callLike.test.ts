import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { callLikeNames, findCallLikeBlocks, hasCallLikeBlock, readCallLikeBlock } from "./callLike";
import { compileProbe } from "./compile";
import { scheduleWindow, variant } from "./testProbes";

const NAMES = callLikeNames(compileProbe(scheduleWindow()));
const has = (text: string) => hasCallLikeBlock(text.toLowerCase(), NAMES);
const blocks = (text: string, limit?: number) => findCallLikeBlocks(text, NAMES, limit);
const spans = (text: string) => blocks(text).map((b) => text.slice(b.start, b.end));
const F = "```";

describe("callLikeNames", () => {
  it("is the tool's name, then the probed fields, lower-cased", () => {
    expect(NAMES).toEqual(["schedule_window", "timezone", "severity"]);
    const p = variant({ tool: undefined, fields: ["Region"] });
    expect(callLikeNames(compileProbe(p))).toEqual(["region"]);
    expect(callLikeNames(compileProbe(variant({ tool: undefined, fields: [] })))).toEqual([]);
  });
});

describe("fenced blocks", () => {
  it("finds a broken call in a json block (the trailing comma of issue 17)", () => {
    const text = `Here is the call:\n${F}json\n{"name": "schedule_window", "arguments": {"user_id": "u_9182", "timezone": "UTC",}}\n${F}\nDone.`;
    expect(has(text)).toBe(true);
    const [b] = blocks(text);
    expect(b.kind).toBe("fenced");
    expect(text.slice(b.start, b.end).startsWith(`${F}json`)).toBe(true);
    expect(text.slice(b.start, b.end).endsWith(F)).toBe(true);
    expect(b.names).toEqual(["schedule_window", "timezone"]);
  });

  it("takes blocks of any language tag, or none, and calls written as code", () => {
    expect(has(`${F}python\nschedule_window(user_id="u_9182", timezone="UTC")\n${F}`)).toBe(true);
    expect(has(`${F}\ntimezone: UTC\n${F}`)).toBe(true);
    expect(has(`${F}yaml\nseverity: P3\n${F}`)).toBe(true);
  });

  it("runs an unclosed fence (a cut-off reply) to the end of the text", () => {
    const text = `Calling now\n${F}json\n{"name": "schedule_window", "arguments": {"timez`;
    expect(spans(text)).toEqual([text.slice(text.indexOf(F))]);
  });

  it("needs a name in the block, at word boundaries", () => {
    expect(has(`${F}json\n{"status": "pending"}\n${F}\nWhich timezone?`)).toBe(false);
    expect(has(`${F}\nschedule_window_v2(timezones=1)\n${F}`)).toBe(false);
    expect(has(`${F}\nmy_timezone = 1\n${F}`)).toBe(false);
    expect(has(`${F}\nTIMEZONE = 1\n${F}`)).toBe(true);
  });

  it("is closed only by a run at least as long as its opening one", () => {
    const text = `${"````"}\nshort ${F} inside\n${"````"} then timezone outside`;
    expect(has(text)).toBe(false);
    expect(has(`${"````"}\n${F} timezone\n${"````"}`)).toBe(true);
  });
});

describe("JSON-looking objects outside fences", () => {
  it("finds an unfenced call written as text (valid JSON the parser does not take)", () => {
    const text = `<tool_call>\n{"name": "schedule_window", "arguments": {"timezone": "UTC"}}\n</tool_call>`;
    expect(spans(text)).toEqual(['{"name": "schedule_window", "arguments": {"timezone": "UTC"}}']);
    expect(blocks(text)[0].kind).toBe("object");
  });

  it("reads Python's single-quoted dicts", () => {
    expect(spans("Calling: {'name': 'schedule_window', 'arguments': {'timezone': 'UTC'}} ok")).toEqual([
      "{'name': 'schedule_window', 'arguments': {'timezone': 'UTC'}}",
    ]);
  });

  it("runs an object that never closes (cut off) to the end of the text", () => {
    const text = 'Sure. {"name": "schedule_window", "arguments": {"timezone": "UT';
    expect(spans(text)).toEqual([text.slice(6)]);
  });

  it("matches nested braces, ignoring braces and quotes inside strings", () => {
    const text = 'x {"a": {"b": "} {\\" \'"}, "timezone": {"c": {}}} y {"timezone": 1}';
    expect(spans(text)).toEqual(['{"a": {"b": "} {\\" \'"}, "timezone": {"c": {}}}', '{"timezone": 1}']);
  });

  it("does not open on prose braces, code or empty objects", () => {
    expect(has("Use the {timezone} placeholder")).toBe(false);
    expect(has("function f() { return timezone; }")).toBe(false);
    expect(has("{} and timezone")).toBe(false);
    expect(has("{ timezone: 'UTC' }")).toBe(false);
  });

  it("takes only the outermost object, and an inner one when the outer is not JSON-looking", () => {
    expect(spans('{"x": {"timezone": 1}}')).toEqual(['{"x": {"timezone": 1}}']);
    expect(spans('if (a) { call({"timezone": "UTC"}) }')).toEqual(['{"timezone": "UTC"}']);
  });

  it("counts a name anywhere in the object, keys or values", () => {
    expect(has('{"tool": "schedule_window"}')).toBe(true);
    expect(has('{"zone": "UTC"}')).toBe(false);
  });
});

describe("what is not a call-like block", () => {
  it("is prose that merely mentions the tool or a field", () => {
    expect(has("I can call schedule_window once you tell me the timezone.")).toBe(false);
    expect(has("Use `schedule_window` with a `timezone`.")).toBe(false);
  });

  it("is a valid block that names neither the tool nor a field", () => {
    expect(has(`Status:\n${F}json\n{"status": "pending", "zone": "UTC"}\n${F}\nWhich time zone?`)).toBe(
      false,
    );
  });

  it("is anything when the probe gives no names", () => {
    expect(hasCallLikeBlock('{"timezone": 1}', [])).toBe(false);
    expect(findCallLikeBlocks('{"timezone": 1}', [])).toEqual([]);
  });
});

describe("several blocks", () => {
  it("lists blocks in order, fences and objects, up to the limit", () => {
    const text = `{"severity": 1} then ${F}\ntimezone\n${F} then {"note": "x"} then {'timezone': 2}`;
    expect(blocks(text).map((b) => [b.kind, b.names])).toEqual([
      ["object", ["severity"]],
      ["fenced", ["timezone"]],
      ["object", ["timezone"]],
    ]);
    expect(blocks(text, 2)).toHaveLength(2);
  });

  it("keeps offsets of the original text when lower-casing would shift them", () => {
    const text = `İİİ {"TimeZone": "UTC"} İ ${F}\nSEVERITY\n${F}`;
    const found = blocks(text);
    expect(found.map((b) => text.slice(b.start, b.end))).toEqual([
      '{"TimeZone": "UTC"}',
      `${F}\nSEVERITY\n${F}`,
    ]);
    expect(found.map((b) => b.names)).toEqual([["timezone"], ["severity"]]);
  });

  it("agrees with a direct reading on random texts", () => {
    const piece = fc.constantFrom(
      "{",
      "}",
      '"',
      "'",
      "\\",
      F,
      "`",
      " ",
      "\n",
      "timezone",
      "severity",
      "schedule_window",
      "x",
      '{"',
      "{'",
      "_",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (parts) => {
        const text = parts.join("");
        const found = blocks(text);
        expect(has(text)).toBe(found.length > 0);
        let last = 0;
        for (const b of found) {
          expect(b.start).toBeGreaterThanOrEqual(last);
          expect(b.end).toBeGreaterThan(b.start);
          last = b.end;
          const body = text.slice(b.start, b.end).toLowerCase();
          for (const n of b.names) {
            expect(new RegExp(`(^|[^a-z0-9_])${n}($|[^a-z0-9_])`).test(body)).toBe(true);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe("huge texts stay linear", () => {
  const MB = 1 << 20;
  it.each([
    ["unclosed JSON-looking objects", '{"'.repeat(MB)],
    ["objects that never close, with a name at the end", `${'{"a": "'.repeat(MB / 4)}timezone`],
    ["backticks", "`".repeat(4 * MB)],
    ["fences with a name after each", `${F}x${F} timezone `.repeat(MB / 8)],
    ["many names and no block", "timezone ".repeat(MB / 2)],
    ["a name inside words everywhere", `${"xtimezonex ".repeat(MB / 4)}{"timezone": 1}`],
    ["prose braces", "{ a } ".repeat(MB)],
    ["alternating objects and fences", `{"timezone": 1} ${F}severity${F} `.repeat(MB / 16)],
  ])("%s", (_, text) => {
    // A quadratic scan of these takes hours: the test would time out.
    const found = findCallLikeBlocks(text, NAMES, 1_000_000);
    expect(found.length).toBeGreaterThanOrEqual(0);
    expect(typeof hasCallLikeBlock(text.toLowerCase(), NAMES)).toBe("boolean");
  });
});

describe("readCallLikeBlock", () => {
  const read = (text: string) => blocks(text).map((b) => readCallLikeBlock(text, b).kind);
  it("says why a block was not taken", () => {
    expect(read(`${F}json\n{"name": "schedule_window", "arguments": {"timezone": "UTC",}}\n${F}`)).toEqual([
      "not_json",
    ]);
    expect(read(`${F}json\n{"timezone": "UTC"}\n${F}`)).toEqual(["not_call"]);
    expect(read(`${F}json {"name": "schedule_window", "arguments": {}}${F}`)).toEqual(["call"]);
    expect(read('{"name": "schedule_window", "arguments": "{\\"timezone\\": 1}"}')).toEqual(["call"]);
    expect(read('{"name": "schedule_window", "arguments": "{oops"}')).toEqual(["not_call"]);
    expect(read(`${F}python\nschedule_window(timezone="UTC")\n${F}`)).toEqual(["not_json"]);
    expect(read(`{"timezone": "${"x".repeat(300_000)}"}`)).toEqual(["too_large"]);
  });
  it("gives JSON.parse's own words for a block that does not parse", () => {
    const text = `${F}\n{'timezone': 'UTC'}\n${F}`;
    const [b] = blocks(text);
    const r = readCallLikeBlock(text, b);
    expect(r.kind === "not_json" && r.error.length > 0).toBe(true);
  });
});
