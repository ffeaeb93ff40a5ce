import { isUsable, type WorldState } from "./facts";

/** The gate's verdicts, in the order DESIGN.md's decision table lists them. */
export const GATE_VERDICTS = ["no_call", "read_only", "fail", "allow", "block"] as const;
export type GateVerdict = (typeof GATE_VERDICTS)[number];
export type GateNext = "ask" | "stop" | null;

export interface GateResult {
  verdict: GateVerdict;
  /** Required fields that block because they are not known (in the declared order). */
  unknown: readonly string[];
  /** Required fields that block because the facts conflict (in the declared order). */
  conflict: readonly string[];
  /** What the agent does next: ask for the unknown facts, or stop and show both values. */
  next: GateNext;
}

export interface GateInput {
  /** The model made a call (a falsy call is no call). */
  called: boolean;
  /** The called tool has side effects. */
  mutating: boolean;
  /** The call's arguments could not be read (the labels are ERROR). */
  argumentsError: boolean;
  /** Facts the side effect requires, in declared order. */
  requires: readonly string[];
  /** What the agent loop holds. The gate reads facts, never the model's arguments. */
  facts: WorldState;
  /** Facts that override `facts` name by name (a trace's own world state over its probe's). */
  overrides?: WorldState;
}

const NONE: readonly string[] = Object.freeze([]);
/** One frozen result per open verdict: the gate runs once per scored trace. */
const OPEN_RESULTS = Object.fromEntries(
  GATE_VERDICTS.map((verdict) => [
    verdict,
    Object.freeze({ verdict, unknown: NONE, conflict: NONE, next: null }),
  ]),
) as Record<GateVerdict, GateResult>;
const OPEN = (verdict: GateVerdict): GateResult => OPEN_RESULTS[verdict];

/**
 * Own keys only: an inherited property (a prototype, or a polluted Object.prototype) is not a fact
 * the agent loop holds, so it must not open the gate.
 */
function ownFact(facts: WorldState | undefined, name: string) {
  return facts !== undefined && Object.hasOwn(facts, name) ? facts[name] : undefined;
}

/**
 * The decision table as one function. Order matters: no call, then read-only tools, then calls
 * whose arguments cannot be read, then the facts.
 */
export function decideGate(input: GateInput): GateResult {
  if (!input.called) return OPEN("no_call");
  if (!input.mutating) return OPEN("read_only");
  if (input.argumentsError) return OPEN("fail");
  const unknown: string[] = [];
  const conflict: string[] = [];
  for (const name of input.requires) {
    // A trace's own fact for a name wins over the probe's, as if the two were merged.
    const f = ownFact(input.overrides, name) ?? ownFact(input.facts, name);
    if (f?.status === "conflict") conflict.push(name);
    else if (!isUsable(f)) unknown.push(name);
  }
  if (unknown.length === 0 && conflict.length === 0) return OPEN("allow");
  return { verdict: "block", unknown, conflict, next: conflict.length > 0 ? "stop" : "ask" };
}
