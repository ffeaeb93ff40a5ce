import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizePayload } from "./normalize";
import type { NormalizedResponse } from "./response";
import { scoreTrace } from "./score";
import { scheduleWindow, variant } from "./testProbes";

// Issue 17, "The scorer's blind spot, surfaced": the trace flag unparsed_call.

const SW = scheduleWindow();
const F = "```";
const BROKEN = `${F}json\n{"name": "schedule_window", "arguments": {"user_id": "u_9182", "starts_at": "2026-09-08T09:00:00", "timezone": "UTC",}}\n${F}`;
const text = (t: string | null): NormalizedResponse => ({ text: t, tool_calls: [], fenced: false });
const score = (r: NormalizedResponse, probe = SW) => scoreTrace({ response: r }, probe);

describe("unparsed_call", () => {
  it("flags the broken fenced call of issue 17; its keys no longer read as ask terms (outside the seed's shape)", () => {
    const payload = {
      object: "chat.completion",
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", content: `Here is the call:\n${BROKEN}` } }],
    };
    const n = normalizePayload(payload);
    // Not recovered: the block does not parse, so it stays text.
    expect(n.fenced).toBe(false);
    const r = score({ text: n.text, tool_calls: n.tool_calls, fenced: n.fenced });
    // Text inside a fenced code block never counts toward ask terms (DESIGN.md, "Parsing is not scoring").
    expect(r.fields.timezone.label).toBe("DRIFT");
    expect(r.flags).toEqual(["unparsed_call"]);
    expect(r.gate.verdict).toBe("no_call");
  });

  it.each([
    [
      "an unfenced call written as text",
      '<tool_call>\n{"name": "schedule_window", "arguments": {"timezone": "UTC"}}\n</tool_call>',
    ],
    ["a cut-off call", '{"name": "schedule_window", "arguments": {"timezone": "UT'],
    ["a Python dict", "{'name': 'schedule_window', 'arguments': {'timezone': 'UTC'}}"],
    ["a call as Python code", `${F}python\nschedule_window(user_id="u_9182", timezone="UTC")\n${F}`],
    ["a valid block that is not a call but names a field", `${F}json\n{"timezone": "UTC"}\n${F}`],
    ["a block naming only the other probed field", `${F}\nseverity = "P3"\n${F}`],
  ])("flags %s", (_, t) => {
    expect(score(text(t)).flags).toEqual(["unparsed_call"]);
  });

  it.each([
    [
      "prose that mentions the tool and the field",
      "I can call schedule_window once you tell me the timezone.",
    ],
    ["inline code", "Use `schedule_window` with a `timezone`."],
    ["a valid block naming neither", `${F}json\n{"status": "pending"}\n${F}\nWhich timezone?`],
    ["prose braces", "Fill in {timezone} and {severity}."],
    ["no text", null],
  ])("does not flag %s", (_, t) => {
    expect(score(text(t)).flags).toEqual([]);
  });

  it("flags a valid fenced call in the seed's shape (scored as given: no recovery, its keys count)", () => {
    const t = `${F}json\n{"name": "schedule_window", "arguments": {"timezone": "UTC"}}\n${F}`;
    const r = score({ ...text(t), verbatim: true });
    expect(r.fields.timezone.label).toBe("ASK");
    expect(r.flags).toEqual(["unparsed_call"]);
  });

  it("is only raised when no call was taken", () => {
    const called = { text: BROKEN, tool_calls: [{ name: "schedule_window", arguments: {} }], fenced: false };
    expect(score(called).flags).not.toContain("unparsed_call");
    const clarify = variant({ clarify_tool: "ask_user" });
    const asked = { text: BROKEN, tool_calls: [{ name: "ask_user", arguments: {} }], fenced: false };
    expect(score(asked, clarify).flags).not.toContain("unparsed_call");
    // A falsy first call is no call.
    expect(score({ text: BROKEN, tool_calls: [null], fenced: false }).flags).toEqual(["unparsed_call"]);
  });

  it("does not flag the block recovered as the call: it left the text", () => {
    const good = `${F}json\n{"name": "schedule_window", "arguments": {"timezone": "UTC"}}\n${F}`;
    const n = normalizePayload({ object: "chat.completion", choices: [{ message: { content: good } }] });
    expect(n.fenced).toBe(true);
    expect(score({ text: n.text, tool_calls: n.tool_calls, fenced: true }).flags).toEqual(["fenced"]);
  });

  it("names the probe's own tool and fields, nothing else", () => {
    const other = variant({ fields: ["region"], ask_terms: {} });
    expect(score(text('{"timezone": "UTC"}'), other).flags).toEqual([]);
    expect(score(text('{"region": "eu"}'), other).flags).toEqual(["unparsed_call"]);
    expect(score(text('{"name": "schedule_window"}'), other).flags).toEqual(["unparsed_call"]);
    const noTool = variant({ tool: undefined, fields: ["timezone"] });
    expect(score(text('{"name": "schedule_window"}'), noTool).flags).toEqual([]);
    expect(score(text('{"timezone": 1}'), noTool).flags).toEqual(["unparsed_call"]);
  });

  it("never changes a label of the seed's shape (seed parity holds)", () => {
    const piece = fc.constantFrom(
      "{",
      "}",
      '"',
      "'",
      F,
      " ",
      "timezone",
      "severity",
      "schedule_window",
      "which zone",
      "?",
      ",",
      ":",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
        const t = parts.join("");
        const r = score({ ...text(t), verbatim: true });
        const lower = t.toLowerCase();
        expect(r.fields.timezone.label).toBe(
          ["timezone", "time zone", "which zone"].some((x) => lower.includes(x)) ? "ASK" : "DRIFT",
        );
        expect(r.fields.severity.label).toBe(lower.includes("severity") ? "ASK" : "DRIFT");
      }),
      { numRuns: 1000 },
    );
  });
});
