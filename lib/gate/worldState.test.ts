import { describe, expect, it } from "vitest";
import { fact, type WorldState } from "./facts";
import { fuzzWorldStates, parseWorldState } from "./worldState";

function errorOf(input: unknown, names?: readonly string[]): string {
  const r = parseWorldState(input, names);
  if (r.ok) throw new Error(`expected an input error, parsed ${JSON.stringify(r.state)}`);
  return r.error;
}

describe("parseWorldState: input errors say what and where", () => {
  it.each([
    ["truncated JSON", "{", /^world state is not JSON: /],
    ["markdown-wrapped JSON", "```json\n{}\n```", /^world state is not JSON: /],
    ["empty string", "", /^world state is not JSON: /],
    ["a JSON array", "[]", /^world state must be a JSON object of facts, got an array$/],
    ["a JSON number", "42", /^world state must be a JSON object of facts, got the number 42$/],
    ["JSON null", "null", /^world state must be a JSON object of facts, got null$/],
    ["a JSON string", '"u_1"', /^world state must be a JSON object of facts, got the string "u_1"$/],
    ["a JSON boolean", "true", /^world state must be a JSON object of facts, got the boolean true$/],
  ])("rejects %s", (_label, input, message) => {
    expect(errorOf(input)).toMatch(message);
  });

  it.each([
    ["undefined", undefined, "got undefined"],
    ["null", null, "got null"],
    ["an array", [{ status: "known" }], "got an array"],
    ["a number", 7, "got the number 7"],
    ["a Date", new Date(0), "got a Date"],
    ["a Map", new Map([["a", { status: "known" }]]), "got a Map"],
  ])("rejects an already-parsed %s", (_label, input, tail) => {
    expect(errorOf(input)).toBe(`world state must be a JSON object of facts, ${tail}`);
  });

  it.each([
    [
      "a bare value",
      { a: "u_1" },
      'fact "a": must be an object {status, value?, source?}, got the string "u_1"',
    ],
    ["null", { a: null }, 'fact "a": must be an object {status, value?, source?}, got null'],
    ["an array", { a: ["known"] }, 'fact "a": must be an object {status, value?, source?}, got an array'],
    ["no status", { a: { value: 1 } }, 'fact "a": missing "status" (expected one of known|unknown|conflict)'],
    [
      "a wrong status",
      { a: { status: "probably" } },
      'fact "a": "status" is the string "probably", expected one of known|unknown|conflict',
    ],
    [
      "an upper-case status",
      { a: { status: "KNOWN", value: 1 } },
      'fact "a": "status" is the string "KNOWN", expected one of known|unknown|conflict',
    ],
    [
      "a non-string status",
      { a: { status: 1 } },
      'fact "a": "status" is the number 1, expected one of known|unknown|conflict',
    ],
    [
      "a non-string source",
      { a: { status: "known", source: 5 } },
      'fact "a": "source" is the number 5, expected a string',
    ],
    [
      "a null source",
      { a: { status: "known", source: null } },
      'fact "a": "source" is null, expected a string',
    ],
    [
      "an extra key",
      { a: { status: "known", value: 1, confidence: 0.9 } },
      'fact "a": unexpected key "confidence" (allowed: status, value, source)',
    ],
    [
      "extra keys",
      { a: { status: "known", why: 1, conf: 2 } },
      'fact "a": unexpected keys "why", "conf" (allowed: status, value, source)',
    ],
  ])("rejects an entry with %s, naming the key", (_label, input, message) => {
    expect(errorOf(input)).toBe(message);
    expect(errorOf(JSON.stringify(input))).toBe(message);
  });

  it("reports a hostile already-parsed value as an input error", () => {
    const getter = Object.defineProperty({}, "a", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    expect(errorOf(getter)).toBe("world state could not be read: boom");
  });

  it("names the offending key even after valid ones", () => {
    const input = { ok: { status: "known", value: 1 }, action_date: { status: "maybe" } };
    expect(errorOf(input, ["ok", "action_date"])).toMatch(/^fact "action_date": /);
  });

  it("never throws, whatever it is handed", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.a = cyclic;
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("trap");
        },
      },
    );
    const getter = Object.defineProperty({}, "a", {
      enumerable: true,
      get() {
        throw new Error("getter");
      },
    });
    const inputs = [
      Symbol("s"),
      () => 1,
      10n,
      cyclic,
      Object.create(null),
      "\u0000",
      "{".repeat(10_000),
      hostile,
      getter,
    ];
    for (const input of inputs) {
      expect(() => parseWorldState(input)).not.toThrow();
      expect(typeof parseWorldState(input).ok).toBe("boolean");
    }
  });
});

describe("parseWorldState: valid states", () => {
  it("reads facts from a JSON string or an object, keeping value and source", () => {
    const input = {
      user_id: { status: "known", value: "u_1", source: "session" },
      action_date: { status: "conflict", value: ["2026-09-08", "2026-09-09"] },
      timezone: { status: "unknown" },
    };
    const expected: WorldState = {
      user_id: { status: "known", value: "u_1", source: "session" },
      action_date: { status: "conflict", value: ["2026-09-08", "2026-09-09"] },
      timezone: { status: "unknown" },
    };
    expect(parseWorldState(input)).toStrictEqual({ ok: true, state: expected });
    expect(parseWorldState(JSON.stringify(input))).toStrictEqual({ ok: true, state: expected });
  });

  it("accepts a null-prototype object", () => {
    const input = Object.assign(Object.create(null), { a: { status: "unknown" } });
    expect(parseWorldState(input)).toEqual({ ok: true, state: { a: { status: "unknown" } } });
  });

  it("makes absent names explicit unknown facts, in the order of names, then other keys", () => {
    const r = parseWorldState(
      '{"extra":{"status":"known","value":1},"action_date":{"status":"known","value":"d"}}',
      ["user_id", "resource_id", "action_date"],
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.keys(r.state)).toEqual(["user_id", "resource_id", "action_date", "extra"]);
    expect(r.state.user_id).toEqual(fact.unknown());
    expect(r.state.resource_id).toEqual(fact.unknown());
    expect(r.state.action_date).toEqual({ status: "known", value: "d" });
  });

  it("keeps a __proto__ key as a fact, never as a prototype", () => {
    const r = parseWorldState('{"__proto__":{"status":"known","value":"x"}}', ["__proto__"]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.getPrototypeOf(r.state)).toBe(Object.prototype);
    expect(Object.keys(r.state)).toEqual(["__proto__"]);
    expect(Object.getOwnPropertyDescriptor(r.state, "__proto__")?.value).toEqual({
      status: "known",
      value: "x",
    });
  });

  it("does not alias the input's fact objects", () => {
    const input = { a: { status: "known", value: 1 } };
    const r = parseWorldState(input);
    if (!r.ok) throw new Error(r.error);
    expect(r.state.a).not.toBe(input.a);
  });
});

describe("fuzzWorldStates", () => {
  it("counts every parse failure with an indexed message and keeps every state, in order", () => {
    const blobs = ["{}", "nope", "[]", '{"a":{"status":"known","value":1}}', '{"a":{"status":"?"}}'];
    const r = fuzzWorldStates(blobs, ["a"]);
    expect(r.inputErrors).toBe(3);
    expect(r.errors).toEqual([
      expect.stringMatching(/^blob 1: world state is not JSON: /),
      "blob 2: world state must be a JSON object of facts, got an array",
      'blob 4: fact "a": "status" is the string "?", expected one of known|unknown|conflict',
    ]);
    expect(r.states).toEqual([{ a: fact.unknown() }, { a: { status: "known", value: 1 } }]);
  });

  it("accepts any iterable, including a generator", () => {
    function* gen() {
      yield "{}";
      yield "{";
    }
    const r = fuzzWorldStates(gen(), []);
    expect(r).toEqual({ states: [{}], inputErrors: 1, errors: [expect.stringMatching(/^blob 1: /)] });
  });
});
