import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FIELD_FLAGS, TRACE_FLAGS } from "../probe/score";
import { hasQuestion, questionSentences } from "./question";
import {
  QUEUE_RULES,
  QUEUE_SLOTS,
  type QueueInput,
  queueRulesOf,
  queueSlot,
  RULE_RANK,
  SLOT_RANK,
  slotRule,
} from "./queueRules";

const f = (label: string, flags: string[] = []) => ({ label, flags }) as QueueInput["fields"][string];

function rules(t: Partial<QueueInput>) {
  return queueRulesOf({ fields: {}, flags: [], text: null, ...t });
}

describe("queueRulesOf", () => {
  it("lists the rules in DESIGN.md's order", () => {
    expect(QUEUE_RULES).toEqual([
      "drift_question",
      "ask_and_call",
      "recorded_mismatch",
      "imported_disagrees",
      "fenced",
      "unparsed_call",
      "unrecognized_payload",
      "typed_by_user",
      "wrong_tool",
    ]);
    expect(QUEUE_RULES.map((r) => RULE_RANK[r])).toEqual(QUEUE_RULES.map((_, i) => i));
  });

  it("queues a DRIFT whose text holds a question, by the one definition of a question", () => {
    const fields = { timezone: f("DRIFT"), severity: f("DRIFT") };
    expect(
      rules({ fields, text: "Which region is u_9182 in? I need that to place 09:00 correctly." }),
    ).toEqual({
      timezone: ["drift_question"],
      severity: ["drift_question"],
    });
    // A request phrase with no question mark is a question too.
    expect(rules({ fields, text: "Let me know the region." })).toEqual({
      timezone: ["drift_question"],
      severity: ["drift_question"],
    });
    expect(rules({ fields, text: "Done. Scheduled." })).toEqual({});
    expect(rules({ fields, text: null })).toEqual({});
    // Only a DRIFT: an ASK or OMIT beside the question is not queued by it.
    expect(rules({ fields: { timezone: f("ASK"), severity: f("DRIFT") }, text: "Which timezone?" })).toEqual({
      severity: ["drift_question"],
    });
  });

  it("queues an ASK that came with ask_and_call, and no other label", () => {
    const fields = { timezone: f("ASK"), severity: f("OMIT") };
    expect(rules({ fields, flags: ["ask_and_call"] })).toEqual({ timezone: ["ask_and_call"] });
    expect(rules({ fields, flags: [] })).toEqual({});
  });

  it("reads recorded and imported labels per field, ignoring case", () => {
    const fields = { timezone: f("INJECT"), severity: f("OMIT") };
    expect(rules({ fields, recorded: { timezone: "inject", severity: "ASK" } })).toEqual({
      severity: ["recorded_mismatch"],
    });
    expect(rules({ fields, imported: { timezone: "DRIFT", severity: "omit" } })).toEqual({
      timezone: ["imported_disagrees"],
    });
    // A label for a field the probe does not probe is no rule.
    expect(rules({ fields, imported: { region: "ASK" } })).toEqual({});
  });

  it("queues every field of a trace whose flag casts doubt on the whole call", () => {
    const fields = { timezone: f("INJECT"), severity: f("OMIT") };
    for (const flag of ["fenced", "wrong_tool"] as const) {
      expect(rules({ fields, flags: [flag] })).toEqual({ timezone: [flag], severity: [flag] });
    }
  });

  it("queues by flag name from the score, so unparsed_call and unrecognized_payload work once the scorer raises them", () => {
    // A stored score carrying the flags (the scorer adds them to TRACE_FLAGS): faked here.
    const fields = { timezone: f("DRIFT"), severity: f("DRIFT") };
    expect(rules({ fields, flags: ["unparsed_call"], text: "```json\n{broken" })).toEqual({
      timezone: ["unparsed_call"],
      severity: ["unparsed_call"],
    });
    expect(rules({ fields, flags: ["unrecognized_payload"], text: null })).toEqual({
      timezone: ["unrecognized_payload"],
      severity: ["unrecognized_payload"],
    });
    expect(rules({ fields, flags: ["unrecognized_payload", "unparsed_call"], text: "What now?" })).toEqual({
      timezone: ["drift_question", "unparsed_call", "unrecognized_payload"],
      severity: ["drift_question", "unparsed_call", "unrecognized_payload"],
    });
  });

  it("names only flags the scorer has, or the two it is adding", () => {
    const known = new Set<string>([...TRACE_FLAGS, ...FIELD_FLAGS, "unparsed_call", "unrecognized_payload"]);
    for (const r of QUEUE_RULES) {
      if (r === "drift_question" || r === "recorded_mismatch" || r === "imported_disagrees") continue;
      expect(known.has(r), r).toBe(true);
    }
  });

  it("queues an INJECT the user typed, and only an INJECT", () => {
    expect(rules({ fields: { timezone: f("INJECT", ["typed_by_user"]) } })).toEqual({
      timezone: ["typed_by_user"],
    });
    expect(rules({ fields: { timezone: f("COPY", ["typed_by_user"]) } })).toEqual({});
    expect(rules({ fields: { timezone: f("INJECT", ["copied_bait"]) } })).toEqual({});
  });

  it("gives every rule that holds, first rule first", () => {
    expect(
      rules({
        fields: { timezone: f("INJECT", ["typed_by_user"]) },
        flags: ["fenced", "wrong_tool"],
        recorded: { timezone: "OMIT" },
        imported: { timezone: "ASK" },
      }),
    ).toEqual({
      timezone: ["recorded_mismatch", "imported_disagrees", "fenced", "typed_by_user", "wrong_tool"],
    });
  });

  it("reads a question exactly as the one definition marks question sentences", () => {
    const unit = fc.constantFrom("a", "Is", " what", "tell me", ".", "!", "?", "\n", "1", '"', ")", "’");
    fc.assert(
      fc.property(fc.string({ unit }), (t) => {
        expect(hasQuestion(t)).toBe(questionSentences(t).length > 0);
      }),
      { numRuns: 2000 },
    );
  });

  it("serves a DRIFT that asks beside an ASK field after one where no field's terms matched, under the same rule", () => {
    expect(QUEUE_SLOTS.slice(0, 3)).toEqual(["drift_question", "drift_question_beside_ask", "ask_and_call"]);
    expect(QUEUE_SLOTS.map(slotRule)).toEqual(["drift_question", ...QUEUE_RULES]);
    expect(queueSlot("drift_question", { timezone: f("DRIFT"), severity: f("DRIFT") })).toBe(
      "drift_question",
    );
    expect(queueSlot("drift_question", { timezone: f("ASK"), severity: f("DRIFT") })).toBe(
      "drift_question_beside_ask",
    );
    // Only the DRIFT rule has two slots.
    expect(queueSlot("fenced", { timezone: f("ASK"), severity: f("DRIFT") })).toBe("fenced");
    expect(QUEUE_SLOTS.map((x) => SLOT_RANK[x])).toEqual(QUEUE_SLOTS.map((_, i) => i));
  });
});
