import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { decideGate } from "./decide";
import { type GateDecisionRecord, jsonSafe, redactDecision } from "./decisionLog";
import { GateDecisionRecordSchema } from "./decisionRecordSchema";
import { fact, isUsable, type WorldState } from "./facts";
import { AssumptionError } from "./requireKnown";
import { sideEffect } from "./sideEffect";
import { parseWorldState } from "./worldState";

class FakeCalendar {
  readonly token = "secret-token";
  book(r: unknown) {
    return r;
  }
}

const FULL: WorldState = {
  user_id: fact.known("u_1", "session"),
  resource_id: fact.known("room_9", "catalog"),
  action_date: fact.known("2026-09-08", "user"),
};
const REQ = ["user_id", "resource_id", "action_date"];

function logged(): { records: GateDecisionRecord[]; log: (r: GateDecisionRecord) => void } {
  const records: GateDecisionRecord[] = [];
  return { records, log: (r) => records.push(r) };
}

describe("the decision log of sideEffect", () => {
  it("logs an allowed call before it runs, with the tool, arguments and the state as JSON", () => {
    const { records, log } = logged();
    const order: string[] = [];
    function book_slot(_s: WorldState, client: FakeCalendar, note: { text: string }) {
      order.push(`ran after ${records.length} record(s)`);
      return client.book(note);
    }
    const gated = sideEffect(REQ, book_slot, {
      log: (r) => {
        order.push("logged");
        log(r);
      },
    });
    gated({ ...FULL, timezone: fact.unknown() }, new FakeCalendar(), { text: "hi" });
    expect(order).toEqual(["logged", "ran after 1 record(s)"]);
    const [r] = records;
    expect(r).toMatchObject({
      schema: "assumeprobe/gate@1",
      tool: "book_slot",
      requires: REQ,
      arguments: ["[FakeCalendar]", { text: "hi" }],
      world_state: {
        user_id: { status: "known", value: "u_1", source: "session" },
        timezone: { status: "unknown", source: "unset" },
      },
      gate: { verdict: "allow", unknown: [], conflict: [], next: null },
      next_step: { row: "all_known", message: "Confirm the action in one line" },
      implementation: "typescript",
    });
    expect(JSON.stringify(r)).not.toContain("secret-token");
    expect(r.world_state.timezone).not.toHaveProperty("value");
    expect(Date.parse(r.time)).toBeGreaterThan(Date.parse("2026-01-01") - 365 * 86_400_000);
    expect(GateDecisionRecordSchema.safeParse(r).success).toBe(true);
  });

  it("logs a block with its fields and the decision table's next step, then throws; fn never runs", () => {
    const { records, log } = logged();
    const fn = vi.fn();
    const gated = sideEffect(REQ, fn, { log, tool: "book_slot" });
    const state = { ...FULL, user_id: fact.conflict("u_2"), action_date: fact.known("") };
    expect(() => gated(state)).toThrow(AssumptionError);
    expect(fn).not.toHaveBeenCalled();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      tool: "book_slot",
      arguments: [],
      gate: { verdict: "block", unknown: ["action_date"], conflict: ["user_id"], next: "stop" },
      next_step: { row: "conflict", message: "Show both values and stop: user_id" },
      world_state: {
        action_date: { status: "known", value: "" },
        user_id: { status: "conflict", value: "u_2" },
      },
    });
    expect(GateDecisionRecordSchema.safeParse(records[0]).success).toBe(true);
  });

  it("gives every decision its own id", () => {
    const { records, log } = logged();
    const gated = sideEffect(["a"], () => 1, { log });
    for (let i = 0; i < 50; i++) gated({ a: fact.known(i) });
    expect(new Set(records.map((r) => r.id)).size).toBe(50);
  });

  it("stops the call when the sink throws: a side effect never runs unlogged", () => {
    const fn = vi.fn();
    const gated = sideEffect(["a"], fn, {
      log: () => {
        throw new Error("disk full");
      },
    });
    expect(() => gated({ a: fact.known(1) })).toThrow("disk full");
    expect(fn).not.toHaveBeenCalled();
  });

  it("copies the state: changing it after the call does not change the record", () => {
    const { records, log } = logged();
    const state: WorldState = { a: fact.known({ id: 1 }) };
    sideEffect(["a"], () => 1, { log })(state);
    (state.a.value as { id: number }).id = 2;
    state.b = fact.known(3);
    expect(records[0].world_state).toEqual({ a: { status: "known", value: { id: 1 }, source: "unset" } });
  });

  it("records an entry the gate could not read as the unknown it judged it, and a non-object state as no facts", () => {
    const { records, log } = logged();
    const gated = sideEffect(["a", "b"], () => 1, { log });
    const odd = { a: { status: "Known", value: 1 }, b: "yes" } as unknown as WorldState;
    expect(() => gated(odd)).toThrow(AssumptionError);
    expect(records[0].world_state).toEqual({ a: { status: "unknown", value: 1 }, b: { status: "unknown" } });
    expect(() => gated(null as unknown as WorldState)).toThrow(AssumptionError);
    expect(records[1].world_state).toEqual({});
    expect(records[1].gate.unknown).toEqual(["a", "b"]);
  });
});

/** Values of every kind JavaScript has, nested. */
const anyValue = fc.oneof(
  fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true, withNullPrototype: true }),
  fc.constantFrom<unknown>(
    Number.NaN,
    Number.POSITIVE_INFINITY,
    -0,
    "",
    null,
    undefined,
    new Date(Number.NaN),
  ),
);

describe("jsonSafe", () => {
  it("renders what JSON cannot hold as strings, and keeps what it can", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(jsonSafe([Number.NaN, Number.NEGATIVE_INFINITY, -0, 10n, () => 1, Symbol("s")])).toEqual([
      "NaN",
      "-Infinity",
      0,
      "10",
      "[function]",
      "[symbol]",
    ]);
    expect(jsonSafe(cyclic)).toEqual({ a: 1, self: "[circular]" });
    expect(jsonSafe(new Date("2026-09-08T09:00:00Z"))).toBe("2026-09-08T09:00:00.000Z");
    expect(jsonSafe(new Map([[1, 2]]))).toBe("[Map]");
    expect(jsonSafe({ a: undefined, b: [undefined] })).toEqual({ b: [null] });
    const hostile = {
      get boom() {
        throw new Error("no");
      },
    };
    expect(jsonSafe(hostile)).toBe("[Object]");
  });

  it("never throws, always gives JSON, and keeps whether a value counts as present", () => {
    fc.assert(
      fc.property(anyValue, (v) => {
        const safe = jsonSafe(v);
        const text = JSON.stringify(safe ?? null);
        expect(JSON.parse(text)).toEqual(safe ?? null);
        expect(isUsable({ status: "known", value: safe })).toBe(isUsable({ status: "known", value: v }));
      }),
      { numRuns: 2000 },
    );
  });
});

const statusArb = fc.constantFrom("known", "unknown", "conflict", "KNOWN", 1, undefined);
const stateArb = fc.dictionary(
  fc.constantFrom("a", "b", "c", "__proto__", "constructor"),
  fc.oneof(
    fc.record(
      { status: statusArb, value: anyValue, source: fc.string({ maxLength: 3 }) },
      { requiredKeys: [] },
    ),
    anyValue,
  ),
  { maxKeys: 5 },
);
const requiresArb = fc.array(fc.constantFrom("a", "b", "c", "__proto__", "constructor"), { maxLength: 4 });

function recordOf(state: unknown, requires: string[]): GateDecisionRecord {
  const { records, log } = logged();
  try {
    sideEffect(requires, () => 1, { log })(state as WorldState);
  } catch (e) {
    if (!(e instanceof AssumptionError)) throw e;
  }
  return records[0];
}

describe("a record re-read", () => {
  it("gives the same verdict when the gate is run again on its world state (what ingest will check)", () => {
    fc.assert(
      fc.property(stateArb, requiresArb, fc.boolean(), (state, requires, redact) => {
        const record = recordOf(state, requires);
        const written = redact ? redactDecision(record) : record;
        const line = JSON.parse(JSON.stringify(written));
        expect(GateDecisionRecordSchema.safeParse(line).success).toBe(true);
        const parsed = parseWorldState(line.world_state);
        if (!parsed.ok) throw new Error(parsed.error);
        const again = decideGate({
          called: true,
          mutating: true,
          argumentsError: false,
          requires,
          facts: parsed.state,
        });
        expect({ ...again }).toEqual(line.gate);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("redactDecision", () => {
  it("replaces values, keeps names, statuses, sources, argument keys and whether a fact had a value", () => {
    const r = recordOf(
      {
        user_id: fact.known("u_1", "session"),
        note: fact.known("", "user"),
        when: fact.conflict({ a: "x", b: "y" }),
        gone: fact.unknown(),
      },
      ["user_id", "when"],
    );
    const { records, log } = logged();
    sideEffect(["a"], (_s, _x: unknown) => 1, { log })({ a: fact.known(0) }, { tz: "UTC", n: [1, null] });
    const red = redactDecision(r);
    expect(red.world_state).toEqual({
      user_id: { status: "known", value: "[redacted]", source: "session" },
      note: { status: "known", value: "", source: "user" },
      when: { status: "conflict", value: "[redacted]", source: "conflict" },
      gone: { status: "unknown", source: "unset" },
    });
    expect(red.redacted).toBe(true);
    expect(red.gate).toEqual(r.gate);
    expect(redactDecision(records[0]).arguments).toEqual([{ tz: "[redacted]", n: ["[redacted]", null] }]);
    expect(redactDecision(records[0]).world_state.a.value).toBe("[redacted]");
    expect(r.world_state.user_id.value).toBe("u_1");
  });
});

describe("GateDecisionRecordSchema", () => {
  const good = recordOf({ ...FULL, user_id: fact.unknown() }, REQ);
  const bad = (patch: (r: Record<string, unknown>) => void) => {
    const r = structuredClone(good) as unknown as Record<string, unknown>;
    patch(r);
    const res = GateDecisionRecordSchema.safeParse(r);
    return res.success
      ? "accepted"
      : res.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
  };

  it("accepts a record the gate wrote, and keys a later version may add", () => {
    expect(GateDecisionRecordSchema.safeParse(good).success).toBe(true);
    expect(bad((r) => (r.extra = 1))).toBe("accepted");
  });

  it("rejects a record whose parts disagree or lack their shape, saying where", () => {
    expect(bad((r) => (r.schema = "assumeprobe/trace@1"))).toBe(
      'schema: schema must be "assumeprobe/gate@1"',
    );
    expect(bad((r) => ((r.gate as { verdict: string }).verdict = "allow"))).toBe(
      "gate: an allow has no unknown or conflict fields",
    );
    expect(bad((r) => ((r.gate as { next: string }).next = "stop"))).toContain(
      'gate.next: next must be "ask" for this verdict',
    );
    expect(bad((r) => ((r.next_step as { row: string }).row = "all_known"))).toBe(
      'next_step.row: the row for verdict block with next "ask" is "unknown"',
    );
    expect(bad((r) => (r.requires = ["resource_id"]))).toBe(
      'gate.unknown: "user_id" blocks but is not in requires',
    );
    expect(bad((r) => (r.time = "yesterday"))).toMatch(/^time: /);
    expect(bad((r) => ((r.world_state as Record<string, unknown>).x = { status: "maybe" }))).toMatch(
      /^world_state\.x\.status: /,
    );
    expect(bad((r) => delete r.tool)).toMatch(/^tool: /);
    expect(bad((r) => (r.redacted = false))).toMatch(/^redacted: /);
  });
});
