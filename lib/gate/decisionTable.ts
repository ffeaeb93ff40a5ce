import { decideGate, type GateResult } from "./decide";
import type { ParseResult } from "./worldState";

export type DecisionRow = "all_known" | "unknown" | "conflict" | "unparsed" | "read_only";

export interface DecisionTableRow {
  readonly row: DecisionRow;
  readonly worldState: string;
  readonly userVisible: string;
  readonly toolCall: "allow" | "block";
}

/** The article's decision table for the turn, as data (frozen, rows too: a caller cannot reword a row). */
export const DECISION_TABLE: readonly DecisionTableRow[] = Object.freeze(
  (
    [
      {
        row: "all_known",
        worldState: "Required facts all known",
        userVisible: "Confirm the action in one line",
        toolCall: "allow",
      },
      {
        row: "unknown",
        worldState: "Any required fact unknown",
        userVisible: "Ask only for the missing fact(s)",
        toolCall: "block",
      },
      {
        row: "conflict",
        worldState: "Any required fact conflict",
        userVisible: "Show both values and stop",
        toolCall: "block",
      },
      {
        row: "unparsed",
        worldState: "JSON from the model will not parse",
        userVisible: "Retry once, then fail the turn",
        toolCall: "block",
      },
      {
        row: "read_only",
        worldState: "Only read-only tools are requested",
        userVisible: "Answer from retrieved records",
        toolCall: "allow",
      },
    ] satisfies DecisionTableRow[]
  ).map((row) => Object.freeze(row)),
);

export interface Situation {
  /** The turn's world state, as `parseWorldState` read it. */
  parsed: ParseResult;
  /** The requested tool has side effects. */
  mutating: boolean;
  /** Facts that side effect requires, in declared order. */
  requires: readonly string[];
}

export interface NextStep extends DecisionTableRow {
  /** The user-visible line, with the field names filled in where the row names them. */
  message: string;
  /** The gate's decision; null when the world state did not parse and the tool mutates. */
  gate: GateResult | null;
}

const ROW = (row: DecisionRow): DecisionTableRow =>
  DECISION_TABLE.find((r) => r.row === row) as DecisionTableRow;

/**
 * Picks the table row for a turn. The facts are judged by `decideGate` alone; this only maps its verdict to
 * a row. Read-only tools run even against a state that did not parse (rule 1: partial state is fine for
 * reads); a mutating tool with an unparsed state is blocked, and the turn is retried once, then failed.
 */
export function nextStep({ parsed, mutating, requires }: Situation): NextStep {
  const facts = parsed.ok ? parsed.state : {};
  const gate = decideGate({ called: true, mutating, argumentsError: false, requires, facts });
  if (gate.verdict === "read_only") {
    const r = ROW("read_only");
    return { ...r, message: r.userVisible, gate };
  }
  if (!parsed.ok) {
    const r = ROW("unparsed");
    return { ...r, message: `${r.userVisible} (${parsed.error})`, gate: null };
  }
  return stepFor(gate);
}

/**
 * The row for a mutating call the gate judged on its facts (verdict `allow` or `block`): a block's `next`
 * says which row, stop when any fact conflicts, else ask; the message names the fields that row is about.
 */
export function stepFor(gate: GateResult): NextStep {
  if (gate.verdict !== "block") {
    const r = ROW("all_known");
    return { ...r, message: r.userVisible, gate };
  }
  const r = ROW(gate.next === "stop" ? "conflict" : "unknown");
  const fields = gate.next === "stop" ? gate.conflict : gate.unknown;
  return { ...r, message: `${r.userVisible}: ${fields.join(", ")}`, gate };
}
