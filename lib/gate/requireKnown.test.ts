import { describe, expect, it } from "vitest";
import { fact, type WorldState } from "./facts";
import { AssumptionError, requireKnown } from "./requireKnown";

function thrown(state: WorldState, ...names: string[]): AssumptionError {
  try {
    requireKnown(state, ...names);
  } catch (e) {
    if (e instanceof AssumptionError) return e;
    throw e;
  }
  throw new Error("requireKnown passed");
}

/** The article's require_known, ported line for line, bug included. */
function articleRequireKnown(
  state: WorldState,
  ...names: string[]
): { fields: string[]; conflictSeen: boolean } {
  const missing: string[] = [];
  let conflictSeen = false;
  for (const name of names) {
    const f = state[name];
    const empty = f.value === null || f.value === undefined || f.value === "";
    if (f.status !== "known" || empty) missing.push(name);
    // The cast is needed because TypeScript itself proves the branch dead: here status is narrowed to "known".
    else if ((f.status as string) === "conflict") {
      // Unreachable: a conflict already failed `status !== "known"` above.
      conflictSeen = true;
      missing.push(name);
    }
  }
  return { fields: missing, conflictSeen };
}

describe("requireKnown", () => {
  it("passes when every named fact is known with a value", () => {
    const state = { a: fact.known("x"), b: fact.known(1) };
    expect(() => requireKnown(state, "a", "b")).not.toThrow();
    expect(() => requireKnown(state)).not.toThrow();
  });

  it("treats 0 and false as values", () => {
    expect(() => requireKnown({ n: fact.known(0), f: fact.known(false) }, "n", "f")).not.toThrow();
  });

  it("treats null, undefined and empty string as no value, even when known", () => {
    const state: WorldState = {
      a: fact.known(null),
      b: fact.known(undefined),
      c: fact.known(""),
      d: { status: "known" },
      ok: fact.known(" "),
    };
    const err = thrown(state, "a", "ok", "b", "c", "d");
    expect(err.fields).toEqual(["a", "b", "c", "d"]);
    expect(err.unknown).toEqual(["a", "b", "c", "d"]);
    expect(err.conflict).toEqual([]);
  });

  it("counts a missing key as unknown, and inherited properties as missing", () => {
    const inherited = Object.create({ action_date: fact.known("2026-09-08") }) as WorldState;
    expect(thrown({}, "user_id").unknown).toEqual(["user_id"]);
    expect(thrown(inherited, "action_date").unknown).toEqual(["action_date"]);
    expect(thrown({}, "constructor", "toString", "__proto__").unknown).toEqual([
      "constructor",
      "toString",
      "__proto__",
    ]);
  });

  it("lists every offending field in the order given, split into unknown and conflict", () => {
    const state: WorldState = {
      user_id: fact.conflict("u_1"),
      resource_id: fact.known("room_9"),
      action_date: fact.unknown(),
      timezone: fact.conflict(),
    };
    const err = thrown(state, "timezone", "action_date", "resource_id", "user_id", "missing");
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe("AssumptionError");
    expect(err.fields).toEqual(["timezone", "action_date", "user_id", "missing"]);
    expect(err.unknown).toEqual(["action_date", "missing"]);
    expect(err.conflict).toEqual(["timezone", "user_id"]);
    expect(err.message).toBe(
      "blocked side effect; unknown: [action_date, missing]; conflict: [timezone, user_id]",
    );
  });

  it("counts a conflict as conflict even when it carries a plausible value", () => {
    const err = thrown({ action_date: fact.conflict("2026-09-08") }, "action_date");
    expect(err.conflict).toEqual(["action_date"]);
    expect(err.unknown).toEqual([]);
    expect(err.message).toBe("blocked side effect; unknown: []; conflict: [action_date]");
  });

  it("tells conflict from unknown, which the article's require_known cannot (its elif is dead code)", () => {
    const state: WorldState = { action_date: fact.conflict("2026-09-08"), user_id: fact.unknown() };
    const article = articleRequireKnown(state, "action_date", "user_id");
    // The article blocks both, but its conflict branch never runs: the two are indistinguishable.
    expect(article).toEqual({ fields: ["action_date", "user_id"], conflictSeen: false });
    const ours = thrown(state, "action_date", "user_id");
    expect(ours.fields).toEqual(article.fields);
    expect(ours.conflict).toEqual(["action_date"]);
    expect(ours.unknown).toEqual(["user_id"]);
  });

  it("fails closed on a state that is not an object", () => {
    expect(thrown(null as unknown as WorldState, "a").unknown).toEqual(["a"]);
  });
});

describe("the AssumptionError's next step", () => {
  it("asks for the unknown facts when only unknown ones block", () => {
    const err = thrown({ a: fact.known(1) }, "b", "a", "c");
    expect(err.next).toBe("ask");
    expect(err.step).toMatchObject({
      row: "unknown",
      toolCall: "block",
      message: "Ask only for the missing fact(s): b, c",
      gate: { verdict: "block", unknown: ["b", "c"], conflict: [], next: "ask" },
    });
  });

  it("shows both values and stops when any fact conflicts, naming the conflicting ones", () => {
    const err = thrown({ a: fact.conflict("x"), c: fact.conflict() }, "b", "a", "c");
    expect(err.next).toBe("stop");
    expect(err.step).toMatchObject({ row: "conflict", message: "Show both values and stop: a, c" });
  });
});
