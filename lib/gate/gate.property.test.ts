import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decideGate } from "./decide";
import { FactSchema } from "./factSchema";
import { type Fact, isUsable, type WorldState } from "./facts";
import { AssumptionError, requireKnown } from "./requireKnown";
import { parseWorldState } from "./worldState";

const nameArb = fc.oneof(
  fc.constantFrom(
    "user_id",
    "resource_id",
    "action_date",
    "timezone",
    "constructor",
    "toString",
    "__proto__",
  ),
  fc.string({ maxLength: 3 }),
);

const valueArb = fc.oneof(
  fc.constantFrom<unknown>(null, undefined, "", 0, false, -0, Number.NaN, " "),
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.array(fc.string(), { maxLength: 2 }),
);

const factArb: fc.Arbitrary<Fact> = fc
  .record(
    {
      status: fc.constantFrom("known", "unknown", "conflict") as fc.Arbitrary<Fact["status"]>,
      value: valueArb,
      source: fc.string({ maxLength: 5 }),
    },
    { requiredKeys: ["status"] },
  )
  .map((f) => f as Fact);

/** Built with defineProperty so that "__proto__" is an own key like any other. */
const stateArb: fc.Arbitrary<WorldState> = fc
  .array(fc.tuple(nameArb, factArb), { maxLength: 8 })
  .map((entries) => {
    const state: WorldState = {};
    for (const [k, f] of entries) {
      Object.defineProperty(state, k, { value: f, enumerable: true, writable: true, configurable: true });
    }
    return state;
  });

/** The oracle, written from the rule and not from decideGate. */
function expected(state: WorldState, requires: readonly string[]) {
  const own = (n: string): Fact | undefined => (Object.hasOwn(state, n) ? state[n] : undefined);
  const usable = (f: Fact | undefined) =>
    f?.status === "known" && f.value !== null && f.value !== undefined && f.value !== "";
  return {
    allow: requires.every((n) => usable(own(n))),
    conflict: requires.filter((n) => own(n)?.status === "conflict"),
    unknown: requires.filter((n) => own(n)?.status !== "conflict" && !usable(own(n))),
  };
}

const runs = { numRuns: 500 };

describe("gate properties", () => {
  it("decideGate allows iff every required fact is usable, and blocks list exactly the offenders in order", () => {
    fc.assert(
      fc.property(stateArb, fc.array(nameArb, { maxLength: 6 }), (facts, requires) => {
        const r = decideGate({ called: true, mutating: true, argumentsError: false, requires, facts });
        const e = expected(facts, requires);
        expect(r.verdict === "allow").toBe(e.allow);
        expect(r.verdict === "allow").toBe(
          requires.every((n) => Object.hasOwn(facts, n) && isUsable(facts[n])),
        );
        if (e.allow) {
          expect(r).toEqual({ verdict: "allow", unknown: [], conflict: [], next: null });
        } else {
          expect(r.verdict).toBe("block");
          expect(r.unknown).toEqual(e.unknown);
          expect(r.conflict).toEqual(e.conflict);
          expect(r.next).toBe(e.conflict.length > 0 ? "stop" : "ask");
        }
      }),
      runs,
    );
  });

  it("requireKnown throws iff decideGate blocks a mutating call, with the same field lists", () => {
    fc.assert(
      fc.property(stateArb, fc.array(nameArb, { maxLength: 6 }), (facts, requires) => {
        const gate = decideGate({ called: true, mutating: true, argumentsError: false, requires, facts });
        let err: unknown = null;
        try {
          requireKnown(facts, ...requires);
        } catch (e) {
          err = e;
        }
        if (gate.verdict === "allow") {
          expect(err).toBeNull();
          return;
        }
        expect(gate.verdict).toBe("block");
        expect(err).toBeInstanceOf(AssumptionError);
        const a = err as AssumptionError;
        expect(a.unknown).toEqual(gate.unknown);
        expect(a.conflict).toEqual(gate.conflict);
        expect(a.fields).toEqual(
          requires.filter((n) => gate.unknown.includes(n) || gate.conflict.includes(n)),
        );
      }),
      runs,
    );
  });

  it("parseWorldState accepts an entry iff FactSchema does, and never throws", () => {
    const entryArb = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          status: fc.oneof(fc.constantFrom("known", "unknown", "conflict", "KNOWN", ""), fc.jsonValue()),
          value: fc.jsonValue(),
          source: fc.oneof(fc.string(), fc.jsonValue()),
          extra: fc.jsonValue(),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(fc.constantFrom("a", "user_id", "x y"), entryArb, (key, entry) => {
        const input = { [key]: entry };
        const direct = parseWorldState(input);
        expect(direct.ok).toBe(FactSchema.safeParse(entry).success);
        expect(parseWorldState(JSON.stringify(input)).ok).toBe(direct.ok);
        if (!direct.ok) expect(direct.error.startsWith(`fact ${JSON.stringify(key)}: `)).toBe(true);
      }),
      runs,
    );
  });

  it("a parsed state round-trips and makes every listed name present", () => {
    fc.assert(
      fc.property(stateArb, fc.array(nameArb, { maxLength: 5 }), (state, names) => {
        const json = JSON.stringify(state);
        const r = parseWorldState(json, names);
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        for (const n of names) expect(Object.hasOwn(r.state, n)).toBe(true);
        for (const [k, f] of Object.entries(JSON.parse(json) as WorldState)) {
          expect(JSON.stringify(Object.getOwnPropertyDescriptor(r.state, k)?.value)).toBe(JSON.stringify(f));
        }
      }),
      runs,
    );
  });
});
