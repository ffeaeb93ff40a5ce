import type { Label } from "../probe/schema";
import type { FieldScore } from "../probe/score";
import { normalizeImported } from "./humanLabel";
import { hasQuestion } from "./question";

/**
 * The review queue's rules (DESIGN.md, "Review queue"): the fields most likely to be the scorer's
 * misfires, in the order DESIGN.md lists them. A field is in the queue when a rule holds for it
 * and it has no current review with a label (a clear puts it back); it is queued under the first
 * rule that holds, and the queue serves rule by rule.
 *
 * Where DESIGN.md is silent:
 * - Trace flags (`fenced`, `unparsed_call`, `unrecognized_payload`, `wrong_tool`) queue every
 *   probed field of the trace: the flag casts doubt on all of its labels.
 * - `recorded_mismatch` and disagreement with an imported label are read per field (the field's
 *   recorded or imported label differs from ours, ignoring case), not from the trace flag that
 *   says some field differs.
 * - Rules are named by the flag they read, so a flag the scorer does not raise yet (say
 *   `unparsed_call`) queues fields as soon as a stored score carries it.
 */
export const QUEUE_RULES = [
  "drift_question",
  "ask_and_call",
  "recorded_mismatch",
  "imported_disagrees",
  "fenced",
  "unparsed_call",
  "unrecognized_payload",
  "typed_by_user",
  "wrong_tool",
] as const;
export type QueueRule = (typeof QUEUE_RULES)[number];

interface RuleDef {
  /** Our label must be this one. */
  label?: Label;
  /** The trace must carry this flag (by name, as the score stores it). */
  traceFlag?: string;
  /** The field must carry this flag. */
  fieldFlag?: string;
  /** The response text must hold a question (lib/review/question.ts). */
  question?: true;
  recorded?: true;
  imported?: true;
}

const RULES: Readonly<Record<QueueRule, RuleDef>> = {
  drift_question: { label: "DRIFT", question: true },
  ask_and_call: { label: "ASK", traceFlag: "ask_and_call" },
  recorded_mismatch: { recorded: true },
  imported_disagrees: { imported: true },
  fenced: { traceFlag: "fenced" },
  unparsed_call: { traceFlag: "unparsed_call" },
  unrecognized_payload: { traceFlag: "unrecognized_payload" },
  typed_by_user: { label: "INJECT", fieldFlag: "typed_by_user" },
  wrong_tool: { traceFlag: "wrong_tool" },
};

/** What a reviewer reads: the rule in DESIGN.md's words, and why it may be a misfire. */
export const QUEUE_RULE_TEXT: Readonly<Record<QueueRule, { title: string; why: string }>> = {
  drift_question: {
    title: "DRIFT whose text holds a question",
    why: "the reply asks something but uses none of the field's ask terms: the bag-of-words heuristic may have missed an ASK",
  },
  ask_and_call: {
    title: "ASK with ask_and_call",
    why: "the model asked and called in the same turn: did it really ask for this field?",
  },
  recorded_mismatch: {
    title: "recorded label differs",
    why: "the harness that produced the trace recorded another label for this field",
  },
  imported_disagrees: {
    title: "imported human label differs",
    why: "a human label imported with the trace says otherwise",
  },
  fenced: {
    title: "call recovered from a fenced block",
    why: "the call was read from a fenced JSON block in the text, not from a structured call",
  },
  unparsed_call: {
    title: "unparsed call",
    why: "no call was taken, but the text holds what looks like a broken call whose keys can read as ask terms",
  },
  unrecognized_payload: {
    title: "unrecognized payload",
    why: "the raw payload is in no format the parser knows, so no call could be looked for",
  },
  typed_by_user: {
    title: "INJECT of a value the user typed",
    why: "the value appears in the user's text: the visible-set tokenizer may have missed it",
  },
  wrong_tool: {
    title: "wrong tool",
    why: "the call went to another tool than the probe's",
  },
};

export const RULE_RANK: Readonly<Record<QueueRule, number>> = Object.fromEntries(
  QUEUE_RULES.map((r, i) => [r, i]),
) as Record<QueueRule, number>;

export function isQueueRule(s: string): s is QueueRule {
  return Object.hasOwn(RULE_RANK, s);
}

/**
 * The queue serves slot by slot: one per rule, except that a DRIFT that asks comes in two. A DRIFT
 * in a trace where no field is ASK (no field's ask terms matched: "Which region is u_9182 in?")
 * is more likely a missed ASK than a DRIFT beside an ASK field, whose question the matched terms
 * already explain ("Which timezone?" leaves the severity DRIFT): those come second, still under
 * the first rule. Where DESIGN.md orders rules, the slots keep its order.
 */
export const QUEUE_SLOTS = ["drift_question", "drift_question_beside_ask", ...QUEUE_RULES.slice(1)] as const;
export type QueueSlot = (typeof QUEUE_SLOTS)[number];

export const SLOT_RANK: Readonly<Record<QueueSlot, number>> = Object.fromEntries(
  QUEUE_SLOTS.map((r, i) => [r, i]),
) as Record<QueueSlot, number>;

export function isQueueSlot(s: string): s is QueueSlot {
  return Object.hasOwn(SLOT_RANK, s);
}

/** The rule a slot serves. */
export function slotRule(slot: QueueSlot): QueueRule {
  return slot === "drift_question_beside_ask" ? "drift_question" : slot;
}

/** The slot a field waits in, from its first rule and the trace's labels. */
export function queueSlot(rule: QueueRule, fields: QueueInput["fields"]): QueueSlot {
  if (rule !== "drift_question") return rule;
  for (const f of Object.keys(fields)) if (fields[f].label === "ASK") return "drift_question_beside_ask";
  return rule;
}

/** What the rules read of one scored trace. */
export interface QueueInput {
  fields: Readonly<Record<string, Pick<FieldScore, "label" | "flags">>>;
  /** Trace flags, by name. */
  flags: readonly string[];
  /** The response text. */
  text: string | null | undefined;
  /** Imported human labels per field. */
  imported?: Readonly<Record<string, string>> | null;
  /** Recorded (harness) labels per field. */
  recorded?: Readonly<Record<string, string>> | null;
}

/**
 * Per probed field, every rule that holds, in queue order; fields no rule holds for are absent.
 * The text is searched for a question only when a field is DRIFT, once.
 */
export function queueRulesOf(t: QueueInput): Record<string, QueueRule[]> {
  const out: Record<string, QueueRule[]> = {};
  let question: boolean | undefined;
  const asks = () => {
    question ??= hasQuestion(t.text);
    return question;
  };
  for (const field of Object.keys(t.fields)) {
    const f = t.fields[field];
    let rules: QueueRule[] | undefined;
    for (const rule of QUEUE_RULES) {
      const d = RULES[rule];
      if (d.label !== undefined && f.label !== d.label) continue;
      if (d.traceFlag !== undefined && !t.flags.includes(d.traceFlag)) continue;
      if (d.fieldFlag !== undefined && !(f.flags as readonly string[]).includes(d.fieldFlag)) continue;
      if (d.recorded) {
        const rec = t.recorded?.[field];
        if (rec === undefined || rec === null || String(rec).toUpperCase() === f.label) continue;
      }
      if (d.imported) {
        const imp = normalizeImported(t.imported?.[field]);
        if (imp === undefined || imp === f.label) continue;
      }
      if (d.question && !asks()) continue;
      if (rules) rules.push(rule);
      else rules = [rule];
    }
    if (rules) out[field] = rules;
  }
  return out;
}
