import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JsonScanner } from "../formats/jsonScanner";
import { selectOtlpSpan } from "../formats/otlp";
import { builtinProbes } from "../probe/builtin";
import type { Probe } from "../probe/schema";
import { rescoreStored } from "./rescore";
import { readSpan, resolveSpanProbe, spanParts } from "./spanRecord";

const DATA = join(import.meta.dirname, "..", "..", "fixtures", "testdata", "otel");
const probes = builtinProbes();
const scheduleWindow = probes.get("schedule_window") as Probe;

function spansOf(file: string): Buffer[] {
  const s = new JsonScanner({ select: selectOtlpSpan, maxBytes: 1 << 20 });
  return [...s.push(readFileSync(join(DATA, file))), ...s.end()].map((v) => v.bytes);
}

describe("a stored span re-read from its original", () => {
  it("scores again from the span's bytes, by its format's reader", () => {
    const [first] = spansOf("genai.otlp.json");
    const r = rescoreStored(
      {
        id: 1,
        probeId: "schedule_window",
        form: "otlp",
        extId: null,
        model: "gpt-4o",
        original: first.toString("utf8"),
        result: "",
        response: "",
      },
      scheduleWindow,
    );
    if (!r.ok) throw new Error(r.reason);
    expect(JSON.parse(r.scored.response)).toEqual({
      text: null,
      tool_calls: [
        {
          name: "schedule_window",
          arguments: { user_id: "u_9182", starts_at: "2026-09-08T09:00:00", timezone: "UTC" },
        },
      ],
      fenced: false,
    });
    expect(r.scored.score.fields.timezone.label).toBe("INJECT");
    // Read as our own record, the same bytes would not read at all.
    const asTrace = rescoreStored(
      {
        id: 1,
        probeId: "schedule_window",
        form: "trace",
        extId: null,
        model: null,
        original: first,
        result: "",
        response: "",
      },
      scheduleWindow,
    );
    expect(asTrace.ok).toBe(false);
  });
});

describe("spanParts", () => {
  it("flags an LLM span whose messages are in no style read here unrecognized, not an empty answer", () => {
    const read = (attributes: Record<string, unknown>) => {
      const r = readSpan("phoenix", {
        context: { trace_id: "t", span_id: "s" },
        span_kind: "LLM",
        attributes,
      });
      if (r.kind !== "generation") throw new Error("not a generation");
      const parts = spanParts(r.generation);
      if ("error" in parts) throw new Error(parts.error);
      return parts.response;
    };
    expect(read({ "llm.model_name": "m" })).toEqual({
      text: null,
      tool_calls: [],
      fenced: false,
      unrecognized: true,
    });
    expect(read({ "gen_ai.output.messages": "[{not json" })).toMatchObject({ unrecognized: true });
    expect(read({ "llm.output_messages.0.message.content": "hi" })).toEqual({
      text: "hi",
      tool_calls: [],
      fenced: false,
    });
  });
});

describe("resolveSpanProbe", () => {
  const all = () => [...probes.values()];
  const lookup = (id: string) => probes.get(id);
  const gen = (offered: string[], called: string[], probe?: string) => {
    const r = readSpan("phoenix", {
      context: { trace_id: "t", span_id: "s" },
      span_kind: "LLM",
      attributes: {
        ...(probe ? { "assumeprobe.probe": probe } : {}),
        llm: {
          tools: offered.map((n) => ({ tool: { json_schema: JSON.stringify({ function: { name: n } }) } })),
          output_messages: [
            {
              message: {
                tool_calls: called.map((n) => ({ tool_call: { function: { name: n, arguments: "{}" } } })),
              },
            },
          ],
        },
      },
    });
    if (r.kind !== "generation") throw new Error("not a generation");
    return r.generation;
  };
  const idOf = (r: Probe | { error: string }) => ("error" in r ? r.error : r.id);

  it("takes the span's probe, else --probe, else the one probe of the tools offered or called", () => {
    expect(idOf(resolveSpanProbe(gen([], [], "book_slot"), "deploy_service", lookup, all))).toBe("book_slot");
    expect(idOf(resolveSpanProbe(gen(["book_slot"], []), "deploy_service", lookup, all))).toBe(
      "deploy_service",
    );
    expect(idOf(resolveSpanProbe(gen(["book_slot", "lookup_user"], []), undefined, lookup, all))).toBe(
      "book_slot",
    );
    expect(idOf(resolveSpanProbe(gen([], ["open_incident"]), undefined, lookup, all))).toBe("open_incident");
  });

  it("rejects none or several, naming the tools and the candidates", () => {
    expect(idOf(resolveSpanProbe(gen(["lookup_user"], []), undefined, lookup, all))).toMatch(
      /^no probe offers the tools .* \(lookup_user\); choose one with --probe/,
    );
    expect(idOf(resolveSpanProbe(gen(["book_slot"], ["deploy_service"]), undefined, lookup, all))).toMatch(
      /^several probes .*: book_slot, deploy_service; choose one with --probe/,
    );
    expect(idOf(resolveSpanProbe(gen([], [], "nope"), undefined, lookup, all))).toBe(
      'unknown probe "nope" (assumeprobe.probe)',
    );
  });
});
