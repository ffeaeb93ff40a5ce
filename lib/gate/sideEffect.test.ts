import { describe, expect, it, vi } from "vitest";
import * as calendarModule from "./calendar";
import { type BookingRequest, createGatedCalendar } from "./calendar";
import { fact, type WorldState } from "./facts";
import { AssumptionError } from "./requireKnown";
import { sideEffect } from "./sideEffect";

const FULL: WorldState = {
  user_id: fact.known("u_1", "session"),
  resource_id: fact.known("room_9", "catalog"),
  action_date: fact.known("2026-09-08", "user"),
};

describe("sideEffect", () => {
  it("does not call fn when blocked", () => {
    const fn = vi.fn((_s: WorldState) => "done");
    const gated = sideEffect(["a", "b"], fn);
    expect(() => gated({ a: fact.known(1) })).toThrow(AssumptionError);
    expect(() => gated({ a: fact.known(1) })).toThrow("blocked side effect; unknown: [b]; conflict: []");
    expect(fn).not.toHaveBeenCalled();
  });

  it("calls fn once with the state and arguments when allowed, and returns its result", () => {
    const fn = vi.fn((s: WorldState, n: number, tag: string) => `${String(s.a.value)}:${n}:${tag}`);
    const gated = sideEffect(["a"], fn);
    const state = { a: fact.known("x") };
    expect(gated(state, 2, "t")).toBe("x:2:t");
    expect(fn).toHaveBeenCalledTimes(1);
    expect(fn).toHaveBeenCalledWith(state, 2, "t");
    expect(fn.mock.calls[0][0]).toBe(state);
  });

  it("never retries: an error from fn propagates after one call", () => {
    const fn = vi.fn(() => {
      throw new Error("backend down");
    });
    const gated = sideEffect(["a"], fn);
    expect(() => gated({ a: fact.known("x") })).toThrow("backend down");
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it("never fills: a blocked state is left as it was", () => {
    const state: WorldState = { a: fact.unknown() };
    const snapshot = structuredClone(state);
    expect(() => sideEffect(["a", "b"], () => 1)(state)).toThrow(AssumptionError);
    expect(state).toEqual(snapshot);
  });

  it("copies the required list, so mutating it later cannot loosen the gate", () => {
    const required = ["a", "b"];
    const gated = sideEffect(required, () => "ran");
    required.length = 0;
    expect(() => gated({ a: fact.known(1) })).toThrow(AssumptionError);
  });
});

describe("sideEffect on an async function", () => {
  it("returns a rejected promise when blocked, never calling fn", async () => {
    const fn = vi.fn(async (_s: WorldState) => "done");
    const gated = sideEffect(["a", "b"], fn);
    const result = gated({ a: fact.conflict(1) });
    expect(result).toBeInstanceOf(Promise);
    await expect(result).rejects.toMatchObject({
      name: "AssumptionError",
      fields: ["a", "b"],
      unknown: ["b"],
      conflict: ["a"],
      next: "stop",
    });
    expect(fn).not.toHaveBeenCalled();
  });

  it("resolves with fn's result when allowed, calling it once", async () => {
    const fn = vi.fn(async (s: WorldState, n: number) => `${String(s.a.value)}:${n}`);
    const gated = sideEffect(["a"], fn);
    await expect(gated({ a: fact.known(0) }, 7)).resolves.toBe("0:7");
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it("never retries: a rejection from fn propagates after one call", async () => {
    const fn = vi.fn(async () => {
      throw new Error("backend down");
    });
    await expect(sideEffect(["a"], fn)({ a: fact.known("x") })).rejects.toThrow("backend down");
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it("blocks a function that returns a promise (not declared async) by throwing at once", () => {
    const fn = vi.fn((_s: WorldState) => Promise.resolve(1));
    expect(() => sideEffect(["a"], fn)({})).toThrow(AssumptionError);
    expect(fn).not.toHaveBeenCalled();
  });
});

describe("sideEffect on a state that is not facts", () => {
  it("blocks, never crashes, on null, strings and numbers where facts should be", () => {
    const fn = vi.fn();
    const gated = sideEffect(["a", "b", "c"], fn);
    const odd = { a: null, b: "known", c: 1 } as unknown as WorldState;
    expect(() => gated(odd)).toThrow("blocked side effect; unknown: [a, b, c]; conflict: []");
    for (const s of [null, undefined, "x", 3, []])
      expect(() => gated(s as unknown as WorldState)).toThrow(AssumptionError);
    expect(fn).not.toHaveBeenCalled();
  });
});

describe("createGatedCalendar", () => {
  it("exports nothing at runtime but createGatedCalendar: no raw client, no ungated booking", () => {
    expect(Object.keys(calendarModule)).toEqual(["createGatedCalendar"]);
  });

  it("keeps the client in a closure: the returned object has only bookSlot and is frozen", () => {
    const client = { book: vi.fn((r: BookingRequest) => r) };
    const calendar = createGatedCalendar(client);
    expect(Object.getOwnPropertyNames(calendar)).toEqual(["bookSlot"]);
    expect(Object.isFrozen(calendar)).toBe(true);
    expect(Object.values(calendar)).not.toContain(client);
    expect(() => {
      (calendar as unknown as Record<string, unknown>).client = client;
    }).toThrow(TypeError);
  });

  it("passes exactly user_id, resource_id and action_date from the state's known values", () => {
    const client = { book: vi.fn((r: BookingRequest) => ({ id: "b1", ...r })) };
    const state = { ...FULL, timezone: fact.known("UTC"), note: fact.known("ignore me") };
    const calendar = createGatedCalendar(client);
    const res = (calendar.bookSlot as (...a: unknown[]) => unknown)(state, { user_id: "u_evil" }, "Tuesday");
    expect(client.book).toHaveBeenCalledTimes(1);
    expect(client.book.mock.calls[0]).toStrictEqual([
      { user_id: "u_1", resource_id: "room_9", action_date: "2026-09-08" },
    ]);
    expect(res).toEqual({ id: "b1", user_id: "u_1", resource_id: "room_9", action_date: "2026-09-08" });
  });

  it("blocks before the client when any of the three is not known", () => {
    const client = { book: vi.fn() };
    const calendar = createGatedCalendar(client);
    expect(() => calendar.bookSlot({ ...FULL, user_id: fact.conflict("u_2") })).toThrow(
      "blocked side effect; unknown: []; conflict: [user_id]",
    );
    expect(() => calendar.bookSlot({ user_id: FULL.user_id })).toThrow(
      "blocked side effect; unknown: [resource_id, action_date]; conflict: []",
    );
    expect(client.book).not.toHaveBeenCalled();
  });
});
