import { describe, expect, it } from "vitest";
import type { CalendarClient } from "../gate/calendar";
import { type Fact, isUsable, type WorldState } from "../gate/facts";
import { AssumptionError } from "../gate/requireKnown";
import { builtinProbes } from "../probe/builtin";
import { BLOB_KINDS, FUZZ_NAMES, FUZZ_PROMPT, generateBlob, generateBlobs } from "./fuzzBlobs";
import { countOutcome, emptyCounts, findLeaks, fuzzBlob, fuzzRecord, type GateFactory } from "./fuzzGate";

const BOOK_SLOT = builtinProbes().get("book_slot");
if (!BOOK_SLOT) throw new Error("no book_slot");
const REQUIRES = BOOK_SLOT.requires;
const SEEDS = [1, 2, 3];
const PER_SEED = 2_000;
const blobs = SEEDS.flatMap((seed) => [...generateBlobs(seed, PER_SEED)].map((b) => ({ seed, ...b })));

function fuzzAll(gate?: GateFactory) {
  const counts = emptyCounts();
  const outcomes = blobs.map((b) => {
    const o = fuzzBlob(b.text, REQUIRES, FUZZ_NAMES, gate);
    countOutcome(counts, o);
    return { ...b, o };
  });
  return { counts, outcomes };
}

/** The test's own oracle: a fully known state (as a JSON object read by hand, no gate code). */
function fullyKnown(text: string): boolean | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, Record<string, unknown>>;
  return REQUIRES.every(
    (n) =>
      Object.hasOwn(o, n) &&
      o[n]?.status === "known" &&
      o[n].value !== null &&
      o[n].value !== undefined &&
      o[n].value !== "",
  );
}

describe("the offline fuzzer over thousands of blobs, through the real gate", () => {
  const { counts, outcomes } = fuzzAll();

  it("finds zero leaks and no crash, and every blob is counted exactly once", () => {
    expect(counts.blobs).toBe(SEEDS.length * PER_SEED);
    expect(counts.leaks).toBe(0);
    expect(counts.crashed).toBe(0);
    expect(counts.blocked + counts.booked + counts.skipped).toBe(counts.blobs);
    // Every skip has a reason, and the reasons add up.
    expect(Object.values(counts.skip_reasons).reduce((a, b) => a + b, 0)).toBe(counts.skipped);
    expect(counts.skip_reasons.other).toBeUndefined();
    for (const { o } of outcomes.filter((x) => x.o.verdict === "skipped")) expect(o.reason).toBeTruthy();
  });

  it("exercises every kind of sloppiness, with all three outcomes in quantity", () => {
    expect(new Set(outcomes.map((x) => x.kind))).toEqual(new Set(BLOB_KINDS));
    expect(counts.blocked).toBeGreaterThan(1000);
    expect(counts.booked).toBeGreaterThan(300);
    expect(counts.skipped).toBeGreaterThan(1000);
  });

  it("books exactly the states a hand-written check finds fully known, with those values and nothing else", () => {
    for (const { text, o } of outcomes) {
      if (o.verdict === "skipped") continue;
      expect(o.verdict === "booked", text).toBe(fullyKnown(text) === true);
      if (o.verdict === "booked") {
        expect(o.calls).toHaveLength(1);
        const parsed = JSON.parse(text);
        expect(o.calls[0]).toStrictEqual(Object.fromEntries(REQUIRES.map((n) => [n, parsed[n].value])));
      } else expect(o.calls).toEqual([]);
    }
  });

  it.each([
    ["markdown_fence", "skipped"],
    ["chatty", "skipped"],
    ["truncated", "skipped"],
    ["python_dict", "skipped"],
    ["trailing_comma", "skipped"],
    ["bare_values", "skipped"],
    ["wrong_status", "skipped"],
    ["not_an_object", "skipped"],
    ["fully_known", "booked"],
    ["missing_keys", "blocked"],
    ["unknown", "blocked"],
    ["unknown_with_value", "blocked"],
    ["conflict", "blocked"],
    ["null_value", "blocked"],
    ["empty_string", "blocked"],
    ["no_value", "blocked"],
  ])("%s blobs are %s", (kind, verdict) => {
    const mine = outcomes.filter((x) => x.kind === kind);
    expect(mine.length).toBeGreaterThan(50);
    for (const { text, o } of mine) expect(o.verdict, text).toBe(verdict);
  });

  it("a conflict blocks with next step stop; its fields are listed as conflicts", () => {
    for (const { o } of outcomes.filter((x) => x.kind === "conflict")) {
      expect(o.conflict?.length).toBeGreaterThan(0);
      expect(o.unknown).toEqual([]);
    }
  });

  it("is deterministic: blob i of a seed does not depend on n; seeds differ", () => {
    expect(generateBlob(2, 17)).toEqual([...generateBlobs(2, 18)][17]);
    expect([...generateBlobs(1, 50)]).not.toEqual([...generateBlobs(2, 50)]);
  });

  it("uses the article's prompt word for word", () => {
    expect(FUZZ_PROMPT).toContain("Leave at least one of user_id, resource_id, action_date unknown.");
    expect(FUZZ_PROMPT).toContain("Do not wrap the JSON in markdown.");
  });
});

describe("a deliberately broken gate is caught", () => {
  const known = (f: Fact | undefined) => f?.status === "known";
  /** Test doubles of the gate, each wrong in one way. */
  const BROKEN: [string, GateFactory][] = [
    [
      "treats a conflict as known",
      (client) => ({
        bookSlot(s: WorldState) {
          if (!REQUIRES.every((n) => isUsable(s[n]) || s[n]?.status === "conflict"))
            throw new AssumptionError([], [], []);
          return client.book({
            user_id: s.user_id.value,
            resource_id: s.resource_id.value,
            action_date: s.action_date.value,
          });
        },
      }),
    ],
    [
      "reads the status and not the value",
      (client) => ({
        bookSlot(s: WorldState) {
          if (!REQUIRES.every((n) => known(s[n]))) throw new AssumptionError([], [], []);
          return client.book({
            user_id: s.user_id.value,
            resource_id: s.resource_id.value,
            action_date: s.action_date.value,
          });
        },
      }),
    ],
    [
      "passes the timezone along",
      (client) => ({
        bookSlot(s: WorldState) {
          if (!REQUIRES.every((n) => isUsable(s[n]))) throw new AssumptionError([], [], []);
          return client.book({
            user_id: s.user_id.value,
            resource_id: s.resource_id.value,
            action_date: s.action_date.value,
            timezone: s.timezone?.value,
          } as never);
        },
      }),
    ],
    [
      "fills a guessed date",
      (client) => ({
        bookSlot(s: WorldState) {
          if (!isUsable(s.user_id) || !isUsable(s.resource_id)) throw new AssumptionError([], [], []);
          return client.book({
            user_id: s.user_id.value,
            resource_id: s.resource_id.value,
            action_date: isUsable(s.action_date) ? s.action_date.value : "2026-09-08",
          });
        },
      }),
    ],
    [
      "lets one blob in a thousand through",
      (() => {
        let n = 0;
        return (client: CalendarClient) => ({
          bookSlot(s: WorldState) {
            if (++n % 1000 !== 0 && !REQUIRES.every((k) => isUsable(s[k])))
              throw new AssumptionError([], [], []);
            return client.book({
              user_id: s.user_id?.value,
              resource_id: s.resource_id?.value,
              action_date: s.action_date?.value,
            });
          },
        });
      })(),
    ],
  ];

  it.each(BROKEN)("one that %s leaks, and the fuzzer says so", (_what, gate) => {
    const { counts, outcomes } = fuzzAll(gate);
    expect(counts.leaks).toBeGreaterThan(0);
    const leak = outcomes.find((x) => x.o.leaks.length > 0);
    expect(leak?.o.leaks[0]).toMatch(/booked while|the calendar received/);
  });

  it("a gate that throws something else is a crash, never a pass", () => {
    const o = fuzzBlob("{}", REQUIRES, FUZZ_NAMES, () => ({
      bookSlot() {
        throw new TypeError("boom");
      },
    }));
    expect(o).toMatchObject({ verdict: "crashed", reason: "TypeError: boom" });
  });

  it("findLeaks names each way a call can be wrong", () => {
    const state: WorldState = {
      user_id: { status: "known", value: "u_1" },
      resource_id: { status: "known", value: "room_9" },
      action_date: { status: "conflict", value: "2026-09-08" },
    };
    expect(
      findLeaks(state, REQUIRES, [{ user_id: "u_1", resource_id: "room_9", action_date: "2026-09-08" }]),
    ).toEqual(["booked while action_date not known"]);
    const ok: WorldState = { ...state, action_date: { status: "known", value: 0 } };
    expect(findLeaks(ok, REQUIRES, [{ user_id: "u_1", resource_id: "room_9", action_date: 0 }])).toEqual([]);
    expect(findLeaks(ok, REQUIRES, [{ user_id: "u_2", resource_id: "room_9" }])).toEqual([
      "the calendar did not receive action_date",
      'the calendar received user_id="u_2", not the known value',
    ]);
    expect(findLeaks(ok, REQUIRES, [])).toEqual([]);
  });
});

describe("book_slot and its records", () => {
  it("the probe requires what the gated calendar books: user_id, resource_id, action_date", () => {
    expect(REQUIRES).toEqual(["user_id", "resource_id", "action_date"]);
    const full =
      '{"user_id":{"status":"known","value":"u"},"resource_id":{"status":"known","value":"r"},"action_date":{"status":"known","value":"d"}}';
    expect(Object.keys(fuzzBlob(full, REQUIRES, FUZZ_NAMES).calls[0])).toEqual([...REQUIRES]);
  });

  it("a skipped blob's record has no world state and says why; a valid one carries its state", () => {
    const skipped = fuzzRecord({
      id: "book_slot#0001",
      run: "r",
      model: "m",
      blob: "```json",
      outcome: fuzzBlob("```json", REQUIRES, FUZZ_NAMES),
    });
    expect(skipped).toEqual({
      schema: "assumeprobe/trace@1",
      id: "book_slot#0001",
      run: "r",
      model: "m",
      probe: "book_slot",
      response: { tool_call: { name: "book_slot", arguments: {} } },
      params: {
        blob: "```json",
        fuzz: { verdict: "skipped", reason: expect.stringMatching(/^world state is not JSON/) },
      },
    });
    const blocked = fuzzRecord({
      id: "book_slot#0002",
      run: "r",
      model: "m",
      blob: "{}",
      outcome: fuzzBlob("{}", REQUIRES, FUZZ_NAMES),
      seed: 4,
      kind: "missing_keys",
    });
    expect(blocked.world_state).toEqual(
      Object.fromEntries(FUZZ_NAMES.map((n) => [n, { status: "unknown", value: null, source: "unset" }])),
    );
    expect(blocked.params).toEqual({
      blob: "{}",
      seed: 4,
      fuzz: { verdict: "blocked", unknown: [...REQUIRES], conflict: [], kind: "missing_keys" },
    });
  });
});
