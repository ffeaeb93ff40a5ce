import { describe, expect, it } from "vitest";
import { JsonScanner, type ScannedValue } from "./jsonScanner";
import { OTLP_HOLDS, selectOtlpSpan } from "./otlp";
import { selectPhoenixSpan } from "./phoenix";

/** Scans `text` pushed in chunks of `size` bytes. */
function scan(
  text: string | Buffer,
  size: number,
  select = selectOtlpSpan,
  maxBytes = 1 << 20,
): ScannedValue[] {
  const s = new JsonScanner({ select, maxBytes });
  const buf = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const out: ScannedValue[] = [];
  for (let i = 0; i < buf.length; i += size) out.push(...s.push(buf.subarray(i, i + size)));
  out.push(...s.end());
  return out;
}

const span = (id: string, extra = "") => `{"traceId":"t","spanId":"${id}"${extra}}`;
const doc = (...spans: string[]) =>
  `{"resourceSpans":[{"resource":{"attributes":[{"key":"k","value":{"stringValue":"}]{["}}]},"scopeSpans":[{"scope":{"name":"s"},"spans":[${spans.join(",")}]}]}]}`;

describe("JsonScanner", () => {
  it("finds each span's own bytes at its offset, whatever the chunk size", () => {
    const text = `\uFEFF${doc(span("a"), span("b", ',"name":"é \\" } ]"'))}\n${doc(span("c"))}\n`;
    const buf = Buffer.from(text);
    for (const size of [1, 2, 3, 7, 64, buf.length]) {
      const got = scan(buf, size);
      expect(got.map((v) => v.error)).toEqual([undefined, undefined, undefined]);
      expect(got.map((v) => JSON.parse(v.bytes.toString()).spanId)).toEqual(["a", "b", "c"]);
      for (const v of got)
        expect(buf.subarray(v.offset, v.offset + v.bytes.length).equals(v.bytes)).toBe(true);
      expect(got.map((v) => v.line)).toEqual([1, 1, 2]);
      expect(got.map((v) => v.path)).toEqual([
        "resourceSpans[0].scopeSpans[0].spans[0]",
        "resourceSpans[0].scopeSpans[0].spans[1]",
        "resourceSpans[0].scopeSpans[0].spans[0]",
      ]);
    }
  });

  it("reads a pretty-printed document's spans with the lines they start on", () => {
    const text = JSON.stringify(JSON.parse(doc(span("a"), span("b"))), null, 2);
    const got = scan(text, 5);
    expect(got.map((v) => [v.line, JSON.parse(v.bytes.toString()).spanId])).toEqual([
      // The span's `{` is two lines above its spanId: 1-based, one above its 0-based index.
      [text.split("\n").findIndex((l) => l.includes('"spanId": "a"')) - 1, "a"],
      [text.split("\n").findIndex((l) => l.includes('"spanId": "b"')) - 1, "b"],
    ]);
  });

  it("rejects a broken line with its line and path, and reads the lines after it", () => {
    const text = `${doc(span("a"))}\n{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"t","spanId":"x"]}]}]}\n${doc(span("c"))}\n`;
    const got = scan(text, 4);
    expect(got.map((v) => v.error === undefined)).toEqual([true, false, true]);
    expect(got[1].line).toBe(2);
    expect(got[1].error).toContain("line 2");
    expect(got[1].error).toContain("resourceSpans[0].scopeSpans[0].spans[0]");
    expect(JSON.parse(got[2].bytes.toString()).spanId).toBe("c");
  });

  it("starts the next JSON Lines record at a column-0 `{` after a line cut outside any string", () => {
    const cut = doc(span("a"), span("b"));
    const text = `${cut.slice(0, cut.indexOf('"b"') + 3)}\n${doc(span("c"))}\n`;
    const got = scan(text, 5);
    expect(got.map((v) => [v.line, v.error === undefined])).toEqual([
      [1, true],
      [1, false],
      [2, true],
    ]);
    expect(got[1].error).toMatch(
      /^not JSON at line 1, inside resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[1\]/,
    );
    expect(JSON.parse(got[2].bytes.toString()).spanId).toBe("c");
  });

  it("says where a cut-off document stopped, keeping the spans before it", () => {
    const full = doc(span("a"), span("b"));
    const cut = full.slice(0, full.indexOf('"b"') + 3);
    const got = scan(cut, 16);
    expect(got).toHaveLength(2);
    expect(got[0].error).toBeUndefined();
    expect(got[1].error).toMatch(/ends inside resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[1\].*cut off/);
  });

  it("rejects a span past the limit with its first bytes, and goes on", () => {
    const big = span("big", `,"pad":"${"x".repeat(500)}"`);
    const got = scan(doc(span("a"), big, span("c")), 33, selectOtlpSpan, 200);
    expect(got.map((v) => v.error === undefined)).toEqual([true, false, true]);
    expect(got[1].error).toContain("over the limit of 200");
    expect(got[1].bytes.length).toBeLessThanOrEqual(200);
  });

  it("takes no span from elsewhere in the document (resource attributes, other keys)", () => {
    const text = `{"resourceSpans":[{"resource":{"spans":[{"x":1}]},"scopeSpans":[{"spans":[${span("a")}],"other":[{"y":2}]}]}],"spans":[{"z":3}]}`;
    expect(scan(text, 9).map((v) => v.bytes.toString())).toEqual([span("a")]);
  });

  it("picks Phoenix spans one a line, in an array, or under data", () => {
    const p = (id: string) => `{"context":{"span_id":"${id}"},"span_kind":"LLM"}`;
    const ids = (vs: ScannedValue[]) => vs.map((v) => JSON.parse(v.bytes.toString()).context.span_id);
    expect(ids(scan(`${p("1")}\n${p("2")}\n`, 3, selectPhoenixSpan("lines")))).toEqual(["1", "2"]);
    expect(ids(scan(`[${p("1")},\n${p("2")}]`, 3, selectPhoenixSpan("array")))).toEqual(["1", "2"]);
    expect(
      ids(scan(`{"data":[${p("1")},${p("2")}],"next_cursor":null}`, 3, selectPhoenixSpan("data"))),
    ).toEqual(["1", "2"]);
  });

  it("reports a top-level value that holds none of what it should, with its first bytes, at any chunk size", () => {
    const stray = `{"traceId":"t","type":"GENERATION","pad":"${"x".repeat(300)}"}`;
    const text = `${doc(span("a"))}\n${stray}\n{"resourceSpans":[]}\n[1,2]\n${doc(span("b"))}\n`;
    for (const size of [1, 5, 64, text.length]) {
      const s = new JsonScanner({
        select: selectOtlpSpan,
        maxBytes: 1 << 20,
        headBytes: 100,
        expect: OTLP_HOLDS,
      });
      const buf = Buffer.from(text);
      const got: ScannedValue[] = [];
      for (let i = 0; i < buf.length; i += size) got.push(...s.push(buf.subarray(i, i + size)));
      got.push(...s.end());
      expect(got.map((v) => [v.line, v.error ?? JSON.parse(v.bytes.toString()).spanId])).toEqual([
        [1, "a"],
        [2, "line 2 holds no resourceSpans (it holds traceId, type, pad): nothing in it was read"],
        // An empty resourceSpans holds no span, and says it is one: nothing to report.
        [4, "line 4 holds no resourceSpans (it is an array): nothing in it was read"],
        [5, "b"],
      ]);
      // The first bytes of the stray line, up to the head limit, as its rejected text.
      expect(got[1].bytes.toString()).toBe(stray.slice(0, 100));
      expect(got[2].bytes.toString()).toBe("[1,2]");
    }
  });
});
