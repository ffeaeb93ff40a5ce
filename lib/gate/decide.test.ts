import { describe, expect, it } from "vitest";
import { decideGate, type GateInput } from "./decide";
import { fact, type WorldState } from "./facts";

const FULL: WorldState = {
  user_id: fact.known("u_1"),
  resource_id: fact.known("room_9"),
  action_date: fact.known("2026-09-08"),
};
const REQ = ["user_id", "resource_id", "action_date"];

const gate = (over: Partial<GateInput>) =>
  decideGate({ called: true, mutating: true, argumentsError: false, requires: REQ, facts: FULL, ...over });

describe("decideGate", () => {
  it("no_call when the model made no call, whatever the facts", () => {
    expect(gate({ called: false, facts: {} })).toEqual({
      verdict: "no_call",
      unknown: [],
      conflict: [],
      next: null,
    });
  });

  it("read_only for a non-mutating tool, even against partial or conflicting facts", () => {
    const facts = { user_id: fact.conflict("u_1") };
    expect(gate({ mutating: false, facts })).toEqual({
      verdict: "read_only",
      unknown: [],
      conflict: [],
      next: null,
    });
  });

  it("fail when the call's arguments cannot be read", () => {
    expect(gate({ argumentsError: true })).toEqual({
      verdict: "fail",
      unknown: [],
      conflict: [],
      next: null,
    });
    expect(gate({ argumentsError: true, mutating: false }).verdict).toBe("read_only");
  });

  it("allow when every required fact is known with a value (0 and false count)", () => {
    expect(gate({})).toEqual({ verdict: "allow", unknown: [], conflict: [], next: null });
    expect(gate({ requires: ["n", "f"], facts: { n: fact.known(0), f: fact.known(false) } }).verdict).toBe(
      "allow",
    );
    expect(gate({ requires: [], facts: {} }).verdict).toBe("allow");
  });

  it("block with next ask when only unknown facts block", () => {
    const facts = { ...FULL, user_id: fact.unknown(), action_date: fact.known("") };
    expect(gate({ facts })).toEqual({
      verdict: "block",
      unknown: ["user_id", "action_date"],
      conflict: [],
      next: "ask",
    });
  });

  it("block with next stop when any fact conflicts, listing unknown ones too", () => {
    const facts = {
      user_id: fact.unknown(),
      resource_id: fact.conflict("room_9"),
      action_date: fact.known(null),
    };
    expect(gate({ facts })).toEqual({
      verdict: "block",
      unknown: ["user_id", "action_date"],
      conflict: ["resource_id"],
      next: "stop",
    });
  });

  it("lists fields in the order of requires, not of the facts", () => {
    const facts = { a: fact.unknown(), b: fact.conflict(), c: fact.unknown(), d: fact.conflict() };
    const r = gate({ requires: ["d", "c", "b", "a", "e"], facts });
    expect(r.unknown).toEqual(["c", "a", "e"]);
    expect(r.conflict).toEqual(["d", "b"]);
  });

  it("reads own facts only: an inherited fact does not open the gate (fixed in decide.ts)", () => {
    const facts = Object.create(FULL) as WorldState;
    expect(gate({ facts })).toEqual({ verdict: "block", unknown: REQ, conflict: [], next: "ask" });
    expect(gate({ requires: ["constructor", "toString"], facts: {} }).unknown).toEqual([
      "constructor",
      "toString",
    ]);
  });

  it("overrides win name by name over facts, exactly as merging the two would", () => {
    const overrides = { user_id: fact.unknown(), extra: fact.known("x") };
    const merged = gate({ facts: { ...FULL, ...overrides } });
    expect(gate({ overrides })).toEqual(merged);
    expect(merged).toEqual({ verdict: "block", unknown: ["user_id"], conflict: [], next: "ask" });
    // A known override opens a fact the probe's facts leave unknown.
    const facts = { ...FULL, action_date: fact.unknown() };
    expect(gate({ facts, overrides: { action_date: fact.known("2026-09-09") } }).verdict).toBe("allow");
    // An inherited override is not a fact: the base fact stands.
    expect(gate({ overrides: Object.create({ user_id: fact.unknown() }) }).verdict).toBe("allow");
  });

  it("open verdicts are shared frozen results that callers cannot change", () => {
    const a = gate({ called: false });
    expect(a).toBe(gate({ called: false, facts: {} }));
    expect(Object.isFrozen(a) && Object.isFrozen(a.unknown)).toBe(true);
    expect(() => (a.unknown as string[]).push("x")).toThrow(TypeError);
  });
});
