import { decideGate, type GateResult } from "./decide";
import { type NextStep, stepFor } from "./decisionTable";
import type { WorldState } from "./facts";

/**
 * Thrown when a side effect's required facts are not all known. `fields` is the stable string to log and
 * alert on: every offending name in the order given, split into `unknown` and `conflict`; `next` and `step`
 * are the decision table's answer (ask for the unknown facts, or show both values and stop).
 */
export class AssumptionError extends Error {
  readonly fields: string[];
  readonly unknown: string[];
  readonly conflict: string[];
  readonly next: "ask" | "stop";
  readonly step: NextStep;

  constructor(fields: readonly string[], unknown: readonly string[], conflict: readonly string[]) {
    super(`blocked side effect; unknown: [${unknown.join(", ")}]; conflict: [${conflict.join(", ")}]`);
    this.name = "AssumptionError";
    this.fields = [...fields];
    this.unknown = [...unknown];
    this.conflict = [...conflict];
    this.next = conflict.length > 0 ? "stop" : "ask";
    const gate: GateResult = {
      verdict: "block",
      unknown: this.unknown,
      conflict: this.conflict,
      next: this.next,
    };
    this.step = stepFor(gate);
  }
}

/** The gate's decision for a mutating call that requires `names`, and the error it throws when it blocks. */
export function judge(
  state: WorldState,
  names: readonly string[],
): { gate: GateResult; error?: AssumptionError } {
  const facts: WorldState = typeof state === "object" && state !== null ? state : {};
  const gate = decideGate({ called: true, mutating: true, argumentsError: false, requires: names, facts });
  if (gate.verdict === "allow") return { gate };
  const offending = new Set([...gate.unknown, ...gate.conflict]);
  const fields = names.filter((n) => offending.has(n));
  return { gate, error: new AssumptionError(fields, gate.unknown, gate.conflict) };
}

/**
 * Throws `AssumptionError` unless every named fact is `known` with a value other than null, undefined or ""
 * (0 and false are values). A missing key is unknown; a conflict is a conflict even when it carries a
 * plausible value.
 *
 * Departs from the article's `require_known`, which reads
 *
 *     if fact.status != FactStatus.KNOWN or empty:
 *         missing.append(name)
 *     elif fact.status == FactStatus.CONFLICT:   # dead: the first branch already took every non-known status
 *         missing.append(name)
 *
 * so it can never tell a conflict from an unknown, and its caller cannot pick "show both values and stop"
 * over "ask for the missing fact". Here the split comes from `decideGate`, the one place the decision lives,
 * so `requireKnown` throws exactly when the gate blocks a mutating call, with the same field lists.
 */
export function requireKnown(state: WorldState, ...names: string[]): void {
  const { error } = judge(state, names);
  if (error) throw error;
}
