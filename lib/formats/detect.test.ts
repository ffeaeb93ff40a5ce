import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { chooseFormat, detectFormat, readHead } from "./detect";

const head = (s: string | Buffer) => readHead(Buffer.isBuffer(s) ? s : Buffer.from(s));
const formatOf = (s: string | Buffer) => {
  const d = detectFormat(head(s));
  return "error" in d ? `error: ${d.error}` : d.format;
};

const OTLP = '{"resourceSpans":[{"resource":{},"scopeSpans":[{"spans":[]}]}]}\n';
const PHOENIX = '{"name":"llm","context":{"trace_id":"t","span_id":"s"},"span_kind":"LLM","attributes":{}}\n';

describe("detectFormat", () => {
  it("tells OTLP by resourceSpans holding scopeSpans, in a line or a pretty document", () => {
    expect(formatOf(OTLP)).toBe("otlp");
    expect(formatOf(JSON.stringify(JSON.parse(OTLP), null, 2))).toBe("otlp");
    expect(formatOf('{"resource_spans":[{"scope_spans":[]}]}')).toBe("otlp");
  });

  it("tells Phoenix by context.span_id beside span_kind, one a line, in an array or under data", () => {
    expect(formatOf(PHOENIX)).toBe("phoenix");
    const inArray = detectFormat(head(`[${PHOENIX}]`));
    expect(inArray).toMatchObject({ format: "phoenix", layout: "array" });
    expect(detectFormat(head(`{"data":[${PHOENIX}]}`))).toMatchObject({ format: "phoenix", layout: "data" });
  });

  it("never decides by one key name: a lone key of another format is our records", () => {
    expect(formatOf('{"resourceSpans":[],"response":{"text":"hi"}}')).toBe("trace");
    expect(formatOf('{"resourceSpans":[{"spans":[]}]}')).toBe("trace");
    expect(formatOf('{"span_kind":"LLM","response":{"text":"x"}}')).toBe("trace");
    expect(formatOf('{"context":{"span_id":"s"},"raw":{}}')).toBe("trace");
    // scopeSpans must be inside resourceSpans' entries, not beside it.
    expect(formatOf('{"resourceSpans":[],"scopeSpans":[]}')).toBe("trace");
    // The keys inside a string are no keys.
    expect(formatOf('{"text":"{\\"resourceSpans\\":[{\\"scopeSpans\\":[]}]}"}')).toBe("trace");
  });

  it("tells Inspect AI by zip magic (.eval) or an EvalLog's eval.task beside samples (.json)", () => {
    expect(formatOf(readFileSync("fixtures/inspect/log_streaming.eval"))).toBe("inspect");
    expect(formatOf(readFileSync("fixtures/inspect/log_read_sample.json"))).toBe("inspect");
    expect(formatOf('{"eval":{"task":"t"},"samples":[]}')).toBe("inspect");
    const kind = (text: string | Buffer) => {
      const d = detectFormat(readHead(typeof text === "string" ? Buffer.from(text) : text));
      return "error" in d ? d.error : d.inspect;
    };
    expect(kind(readFileSync("fixtures/inspect/log_streaming.eval"))).toBe("eval");
    expect(kind(readFileSync("fixtures/inspect/log_read_sample.json"))).toBe("log");
    // The generation records an Inspect log is split into, one a line (a re-ingest of rejected ones).
    expect(
      kind('{"inspect_generation":{"index":0,"model":null},"sample":{"id":1,"epoch":1,"events":[]}}\n'),
    ).toBe("generations");
    // Its key alone is not enough.
    expect(formatOf('{"inspect_generation":{"index":0}}\n')).toBe("trace");
    expect(formatOf('{"eval":{"task":"t"},"results":{}}')).toBe("trace");
    expect(formatOf('{"task":"t","samples":[]}')).toBe("trace");
  });

  it("reads anything else as our records (rejected one by one)", () => {
    expect(formatOf('{"response":{"text":"hi"}}\n')).toBe("trace");
    expect(formatOf("")).toBe("trace");
    expect(formatOf("not json\nat all\n")).toBe("trace");
  });
});

describe("chooseFormat", () => {
  it("refuses a --format the content contradicts, naming what it is", () => {
    const asTrace = chooseFormat("trace", head(OTLP));
    expect(asTrace).toEqual({
      error: expect.stringMatching(/^--format trace, but the file is otlp .*pass --format otlp or auto/),
    });
    const asOtlp = chooseFormat("otlp", head('{"response":{"text":"hi"}}'));
    expect("error" in asOtlp && asOtlp.error).toMatch(
      /^--format otlp, but the file has none of that format's fields/,
    );
    expect(chooseFormat("phoenix", head(OTLP))).toEqual({
      error: expect.stringContaining("the file is otlp"),
    });
  });

  it("takes a --format the content agrees with, and our own records as asked", () => {
    expect(chooseFormat("otlp", head(OTLP))).toMatchObject({ format: "otlp" });
    expect(chooseFormat("when2call", head('{"uuid":"x"}'))).toMatchObject({ format: "when2call" });
    expect(chooseFormat("trace", head("garbage\n"))).toMatchObject({ format: "trace" });
    expect(chooseFormat("trace", head(Buffer.from("PK\u0003\u0004")))).toEqual({
      error: expect.stringMatching(/^--format trace, but the file is inspect \(a zip archive/),
    });
    expect(chooseFormat("auto", head(PHOENIX))).toMatchObject({ format: "phoenix", layout: "lines" });
  });
});
