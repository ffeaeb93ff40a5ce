import { describe, expect, it } from "vitest";
import type { TraceScore } from "./score";
import {
  addTransition,
  describeTransitions,
  EXAMPLES_PER_MOVE,
  emptyTransitions,
  movedFields,
} from "./transitions";

const gate = (verdict: string) => ({ verdict, unknown: [], conflict: [], next: null }) as TraceScore["gate"];
function score(labels: Record<string, string>, flags: string[] = [], verdict = "no_call"): TraceScore {
  const fields: TraceScore["fields"] = {};
  for (const [f, l] of Object.entries(labels)) fields[f] = { label: l as never, flags: [] };
  return { fields, flags: flags as TraceScore["flags"], gate: gate(verdict) };
}

describe("addTransition", () => {
  it("counts label moves per field, flags gained and lost, verdict moves, with example traces", () => {
    const t = emptyTransitions();
    addTransition(
      t,
      score({ timezone: "OMIT", severity: "OMIT" }, ["ask_and_call"], "block"),
      score({ timezone: "ASK", severity: "DRIFT" }),
      7,
    );
    addTransition(
      t,
      score({ timezone: "OMIT", severity: "OMIT" }, [], "block"),
      score({ timezone: "ASK", severity: "OMIT" }, ["fenced"], "block"),
      9,
    );
    expect(t.fields).toEqual({ timezone: { OMIT: { ASK: 2 } }, severity: { OMIT: { DRIFT: 1 } } });
    expect(t.flags).toEqual({ gained: { fenced: 1 }, lost: { ask_and_call: 1 } });
    expect(t.gate).toEqual({ block: { no_call: 1 } });
    expect(t.examples).toEqual({
      "timezone:OMIT>ASK": [7, 9],
      "severity:OMIT>DRIFT": [7],
      "-ask_and_call": [7],
      "+fenced": [9],
      "gate:block>no_call": [7],
    });
    expect(movedFields(t)).toBe(3);
  });

  it("adds nothing for a score that did not move, and survives a JSON round trip", () => {
    const t = emptyTransitions();
    const s = score({ timezone: "ASK" }, ["unparsed_call"]);
    addTransition(t, s, s, 1);
    expect(t).toEqual(emptyTransitions());
    addTransition(t, s, score({ timezone: "DRIFT" }), 2);
    const back = JSON.parse(JSON.stringify(t));
    addTransition(back, s, score({ timezone: "DRIFT" }), 3);
    expect(back.fields.timezone.ASK.DRIFT).toBe(2);
  });

  it("names a field one side did not score", () => {
    const t = emptyTransitions();
    addTransition(t, score({ timezone: "ASK" }), score({ region: "DRIFT" }), 1);
    expect(t.fields).toEqual({ timezone: { ASK: { none: 1 } }, region: { none: { DRIFT: 1 } } });
  });

  it("keeps a few examples per move", () => {
    const t = emptyTransitions();
    for (let i = 0; i < 20; i++) addTransition(t, score({ f: "ASK" }), score({ f: "DRIFT" }), i);
    expect(t.fields.f.ASK.DRIFT).toBe(20);
    expect(t.examples["f:ASK>DRIFT"]).toHaveLength(EXAMPLES_PER_MOVE);
  });
});

describe("describeTransitions", () => {
  it("lists the largest moves first", () => {
    const t = emptyTransitions();
    for (let i = 0; i < 3; i++)
      addTransition(t, score({ timezone: "OMIT" }), score({ timezone: "ASK" }, ["unparsed_call"]), i);
    addTransition(t, score({ timezone: "OMIT" }), score({ timezone: "DRIFT" }), 9);
    expect(describeTransitions(t)).toBe("+unparsed_call 3, timezone OMIT→ASK 3, timezone OMIT→DRIFT 1");
    expect(describeTransitions(t, 1)).toBe("+unparsed_call 3, 2 more");
    expect(describeTransitions(emptyTransitions())).toBe("no label or flag moved");
  });
});
