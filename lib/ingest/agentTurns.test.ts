import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countedGenerations, isAgentStep, type TurnGeneration, turnOf, turnOrder } from "./agentTurns";

const gen = (id: number, over: Partial<TurnGeneration> = {}): TurnGeneration => ({
  id,
  probeId: "schedule_window",
  spanId: `s${id}`,
  startedAt: `2026-09-08T09:00:0${id}.000Z`,
  calls: [],
  probeTools: ["schedule_window"],
  ...over,
});

function shuffled<T>(xs: T[], seed: number): T[] {
  const out = [...xs];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe("countedGenerations", () => {
  it("counts the first generation that calls the probe's tool, in any order given", () => {
    const turn = [gen(1), gen(2, { calls: ["schedule_window"] }), gen(3, { calls: ["schedule_window"] })];
    for (let seed = 1; seed < 20; seed++)
      expect(countedGenerations(shuffled(turn, seed))).toEqual(new Set([2]));
  });

  it("counts the turn's last generation when none calls the probe's tool", () => {
    const turn = [gen(1, { calls: ["lookup_user"] }), gen(3), gen(2)];
    expect(countedGenerations(turn)).toEqual(new Set([3]));
  });

  it("orders by start time, then span id; a generation with no start time comes last", () => {
    const same = "2026-09-08T09:00:00.000Z";
    expect(
      countedGenerations([
        gen(1, { spanId: "b", startedAt: same }),
        gen(2, { spanId: "a", startedAt: same }),
      ]),
    ).toEqual(new Set([1]));
    expect(
      countedGenerations([gen(1, { startedAt: null }), gen(2, { startedAt: "2026-09-08T10:00:00.000Z" })]),
    ).toEqual(new Set([1]));
    // Times compare as instants, not as text.
    expect(
      countedGenerations([
        gen(1, { startedAt: "2026-09-08T09:00:00.5Z", calls: ["schedule_window"] }),
        gen(2, { startedAt: "2026-09-08T09:00:00.25Z", calls: ["schedule_window"] }),
      ]),
    ).toEqual(new Set([2]));
  });

  it("chooses per probe: each probe of a turn counts one generation", () => {
    const turn = [
      gen(1, { probeId: "a", probeTools: ["x"], calls: ["x"] }),
      gen(2, { probeId: "b", probeTools: ["y"] }),
      gen(3, { probeId: "b", probeTools: ["y"] }),
      gen(4, { probeId: "a", probeTools: ["x"] }),
    ];
    expect(countedGenerations(turn)).toEqual(new Set([1, 3]));
  });

  it("counts a turn of one generation", () => {
    expect(countedGenerations([gen(7)])).toEqual(new Set([7]));
  });
});

describe("turnOf", () => {
  it("is the OTLP trace id of a span, none for records of our own format", () => {
    expect(turnOf("otlp", "abc:def")).toBe("abc:");
    expect(turnOf("phoenix", "abc:def")).toBe("abc:");
    expect(turnOf("trace", "abc:def")).toBeNull();
    expect(turnOf("otlp", null)).toBeNull();
  });

  it("is the sample and epoch of an Inspect generation; a promptfoo result is no turn's", () => {
    expect(turnOf("inspect", "task-7:2:11")).toBe("task-7:2:");
    expect(turnOf("inspect", "a:b:1:0")).toBe("a:b:1:");
    expect(turnOf("promptfoo", "r1:x")).toBeNull();
  });
});

describe("turnOrder", () => {
  it("orders an Inspect sample's generations with no start time by their index as a number", () => {
    const turn = [2, 10, 9, 1].map((i) => gen(i, { spanId: String(i), startedAt: null }));
    // No call: the last generation (index 10) counts, not the last as text ("9").
    expect(countedGenerations(turn)).toEqual(new Set([10]));
    expect([...turn].sort(turnOrder).map((g) => g.spanId)).toEqual(["1", "2", "9", "10"]);
  });
});

describe("isAgentStep", () => {
  it("reads the flag from a stored result", () => {
    expect(isAgentStep(JSON.stringify({ flags: ["agent_step"] }))).toBe(true);
    expect(isAgentStep(JSON.stringify({ flags: [], text: "agent_step" }))).toBe(false);
    expect(isAgentStep("not json agent_step")).toBe(false);
  });
});

describe("deciding a turn batch by batch", () => {
  it("over the counted generations and the new ones gives the choice over all of them", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            probe: fc.constantFrom("a", "b"),
            second: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
            calls: fc.boolean(),
            batch: fc.integer({ min: 0, max: 3 }),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        (specs) => {
          const gens = specs.map((s, i) => ({
            g: gen(i + 1, {
              probeId: s.probe,
              spanId: `s${(i * 7) % 5}`,
              startedAt: s.second === null ? null : `2026-09-08T09:00:0${s.second}.000Z`,
              calls: s.calls ? ["schedule_window"] : [],
            }),
            batch: s.batch,
          }));
          let counted = new Set<number>();
          for (let b = 0; b <= 3; b++) {
            const fresh = gens.filter((x) => x.batch === b).map((x) => x.g);
            if (fresh.length === 0) continue;
            const read = gens.filter((x) => counted.has(x.g.id)).map((x) => x.g);
            counted = countedGenerations([...read, ...fresh]);
          }
          expect(counted).toEqual(countedGenerations(gens.map((x) => x.g)));
        },
      ),
      { numRuns: 500 },
    );
  });
});
