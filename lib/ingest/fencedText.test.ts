import { describe, expect, it } from "vitest";
import { askTermHits } from "../probe/argumentMarks";
import { compileProbe } from "../probe/compile";
import { blankFencedCode } from "../probe/fences";
import { scoreTrace } from "../probe/score";
import { scheduleWindow } from "../probe/testProbes";
import { interpretRecord } from "./traceRecord";

const SW = compileProbe({
  ...scheduleWindow(),
  ask_terms: { timezone: ["timezone", "city"], severity: ["severity"] },
});
const read = (v: unknown) => {
  const r = interpretRecord(v, { probe: SW.probe.id }, () => SW.probe);
  if (!r.ok) throw new Error(r.reason);
  return r.record.response;
};
const FENCED = 'Here you go:\n```json\n{"name": "schedule_window", "arguments": {"timezone": "UTC"}}\n```';

describe("fenced text in an explicit response", () => {
  it("recovers a fenced JSON call from an explicit response's text (flag fenced)", () => {
    const response = read({ response: { text: FENCED } });
    expect(response.fenced).toBe(true);
    expect(response.tool_calls).toEqual([{ name: "schedule_window", arguments: { timezone: "UTC" } }]);
    const s = scoreTrace({ response }, SW);
    expect(s.flags).toContain("fenced");
    expect(s.fields.timezone.label).toBe("INJECT");
  });

  it("lets structured calls win over a fenced block", () => {
    const call = { name: "schedule_window", arguments: { timezone: "Asia/Tokyo" } };
    const response = read({ response: { text: FENCED, tool_calls: [call] } });
    expect(response.fenced).toBe(false);
    expect(response.tool_calls).toEqual([call]);
  });

  it("leaves the seed's shape as it is: no recovery, and fenced text counts (seed parity)", () => {
    const response = read({ text: FENCED });
    expect(response.fenced).toBe(false);
    expect(response.tool_calls).toEqual([]);
    expect(scoreTrace({ response }, SW).fields.timezone.label).toBe("ASK");
  });

  it("outside the seed's shape, text in a fenced code block never counts toward ask terms", () => {
    // A block that is not a call (its JSON key `city` is one of the field's terms).
    const text = 'Done.\n```\n{"city": "Paris"}\n```';
    const response = read({ response: { text } });
    expect(response.tool_calls).toEqual([]);
    expect(scoreTrace({ response }, SW).fields.timezone.label).toBe("DRIFT");
    // The same words outside the block ask.
    expect(
      scoreTrace({ response: read({ response: { text: "Which city?" } }) }, SW).fields.timezone.label,
    ).toBe("ASK");
    // The trace page marks nothing inside the block.
    const hits = askTermHits(text, SW);
    expect(hits.fields.timezone.found).toEqual([]);
    expect(hits.segments.some((s) => s.fields)).toBe(false);
  });

  it("blanks fenced blocks in place: offsets kept, line breaks kept, an unclosed fence left as text", () => {
    expect(blankFencedCode("a ```x\ny``` b")).toBe("a     \n     b");
    expect(blankFencedCode("a ```x")).toBe("a ```x");
    expect(blankFencedCode("````\n```\n````z")).toBe("    \n   \n    z");
  });
});
