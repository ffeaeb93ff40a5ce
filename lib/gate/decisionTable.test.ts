import { describe, expect, it } from "vitest";
import { DECISION_TABLE, nextStep } from "./decisionTable";
import { fact } from "./facts";
import { parseWorldState } from "./worldState";

const REQ = ["user_id", "resource_id", "action_date"];
const ok = (state: Record<string, ReturnType<typeof fact.known>>) => ({ ok: true as const, state });
const FULL = {
  user_id: fact.known("u_1"),
  resource_id: fact.known("room_9"),
  action_date: fact.known("2026-09-08"),
};

describe("the decision table", () => {
  it("holds the article's five rows", () => {
    expect(DECISION_TABLE.map((r) => [r.row, r.userVisible, r.toolCall])).toEqual([
      ["all_known", "Confirm the action in one line", "allow"],
      ["unknown", "Ask only for the missing fact(s)", "block"],
      ["conflict", "Show both values and stop", "block"],
      ["unparsed", "Retry once, then fail the turn", "block"],
      ["read_only", "Answer from retrieved records", "allow"],
    ]);
    expect(Object.isFrozen(DECISION_TABLE)).toBe(true);
  });

  it("all required known: confirm in one line, allow", () => {
    const s = nextStep({ parsed: ok(FULL), mutating: true, requires: REQ });
    expect(s).toMatchObject({
      row: "all_known",
      message: "Confirm the action in one line",
      toolCall: "allow",
    });
    expect(s.gate?.verdict).toBe("allow");
  });

  it("any unknown: ask only for the missing facts, in declared order, block", () => {
    const s = nextStep({
      parsed: ok({ ...FULL, user_id: fact.unknown(), action_date: fact.known("") }),
      mutating: true,
      requires: REQ,
    });
    expect(s).toMatchObject({
      row: "unknown",
      message: "Ask only for the missing fact(s): user_id, action_date",
      toolCall: "block",
    });
    expect(s.gate).toMatchObject({ verdict: "block", next: "ask" });
  });

  it("any conflict: show both values and stop, block (conflict wins over unknown)", () => {
    const s = nextStep({
      parsed: ok({ user_id: fact.unknown(), action_date: fact.conflict(["2026-09-08", "2026-09-09"]) }),
      mutating: true,
      requires: REQ,
    });
    expect(s).toMatchObject({
      row: "conflict",
      message: "Show both values and stop: action_date",
      toolCall: "block",
    });
    expect(s.gate).toMatchObject({
      next: "stop",
      conflict: ["action_date"],
      unknown: ["user_id", "resource_id"],
    });
  });

  it("world-state JSON that will not parse: retry once, then fail the turn, block", () => {
    const parsed = parseWorldState("```json\n{}\n```", REQ);
    const s = nextStep({ parsed, mutating: true, requires: REQ });
    expect(s.row).toBe("unparsed");
    expect(s.toolCall).toBe("block");
    expect(s.message).toMatch(/^Retry once, then fail the turn \(world state is not JSON: /);
    expect(s.gate).toBeNull();
  });

  it("read-only tools: answer from retrieved records, allow, even on a partial or unparsed state", () => {
    for (const parsed of [ok({}), parseWorldState("not json")]) {
      const s = nextStep({ parsed, mutating: false, requires: REQ });
      expect(s).toMatchObject({
        row: "read_only",
        message: "Answer from retrieved records",
        toolCall: "allow",
      });
      expect(s.gate?.verdict).toBe("read_only");
    }
  });

  it("agrees with the gate: the tool call is allowed iff decideGate does not block", () => {
    const states = [
      ok(FULL),
      ok({}),
      ok({ ...FULL, resource_id: fact.conflict() }),
      ok({ ...FULL, user_id: fact.known(0) }),
    ];
    for (const parsed of states) {
      for (const mutating of [true, false]) {
        const s = nextStep({ parsed, mutating, requires: REQ });
        expect(s.toolCall === "allow").toBe(s.gate?.verdict !== "block");
      }
    }
  });
});
