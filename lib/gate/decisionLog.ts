// The decision log's record form. No zod and no Node API here: this file is part of the
// self-contained `assumeprobe/gate` entry; the schema that validates records is decisionRecordSchema.ts.
import type { GateResult } from "./decide";
import type { NextStep } from "./decisionTable";
import { FACT_STATUSES, type FactStatus, isUsable, type WorldState } from "./facts";

/** The `schema` of every decision record: a record of the trace format that carries the gate only. */
export const GATE_LOG_SCHEMA = "assumeprobe/gate@1";

/** A fact as the record holds it: `value` absent when the gate read none (null or missing). */
export interface LoggedFact {
  status: FactStatus;
  value?: unknown;
  source?: string;
}

/** One decision of a gated side effect: one JSON line of a decision log. */
export interface GateDecisionRecord {
  schema: typeof GATE_LOG_SCHEMA;
  /** Unique per decision, so a log read twice is counted once. */
  id: string;
  /** When the gate decided, ISO 8601 in UTC with milliseconds. */
  time: string;
  /** The side effect's name (the wrapped function's, unless given). */
  tool: string;
  /** The facts it requires, in declared order. */
  requires: string[];
  /** The positional arguments after the world state, as JSON. The gate never reads them. */
  arguments: unknown[];
  /** Keyword arguments (the Python twin only, when the call had any). */
  keyword_arguments?: Record<string, unknown>;
  /** Every fact of the state, as the gate read it. */
  world_state: Record<string, LoggedFact>;
  /** The verdict in the shape `assumeprobe score` prints: allow, or block with the fields that block. */
  gate: {
    verdict: "allow" | "block";
    unknown: string[];
    conflict: string[];
    next: "ask" | "stop" | null;
  };
  /** The decision table's row for the turn and its user-visible line. */
  next_step: { row: "all_known" | "unknown" | "conflict"; message: string };
  /** Which twin decided. */
  implementation: "typescript" | "python";
  /** Present when values were replaced by "[redacted]" (names, statuses and sources kept). */
  redacted?: true;
  /** Set by the sink when asked: which run and model the decisions belong to. */
  run?: string;
  model?: string;
}

/** Receives each decision before the side effect runs or the block is thrown. */
export type DecisionSink = (record: GateDecisionRecord) => void;

const MAX_DEPTH = 20;

function className(v: object): string {
  const name = Object.getPrototypeOf(v)?.constructor?.name;
  return typeof name === "string" && name !== "" ? name : "object";
}

/**
 * A value as JSON can hold it, never throwing: non-finite numbers and bigints become strings, class
 * instances `"[ClassName]"` (a client handed to the side effect is named, never dumped), cycles
 * `"[circular]"`. A value the gate counts as present (not null, undefined or "") stays present.
 */
export function jsonSafe(v: unknown, seen: Set<object> = new Set(), depth = 0): unknown {
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (v === undefined) return undefined;
  if (typeof v === "number") {
    if (Object.is(v, -0)) return 0;
    return Number.isFinite(v) ? v : String(v);
  }
  if (typeof v === "bigint") return String(v);
  if (typeof v === "function") return "[function]";
  if (typeof v !== "object") return `[${typeof v}]`;
  if (seen.has(v)) return "[circular]";
  if (depth >= MAX_DEPTH) return "[too deep]";
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? "[Invalid Date]" : v.toISOString();
  seen.add(v);
  try {
    if (Array.isArray(v)) return v.map((x) => jsonSafe(x, seen, depth + 1) ?? null);
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return `[${className(v)}]`;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) {
      const x = jsonSafe((v as Record<string, unknown>)[k], seen, depth + 1);
      if (x !== undefined) Object.defineProperty(out, k, { value: x, enumerable: true, writable: true });
    }
    return out;
  } catch {
    return `[${className(v)}]`;
  } finally {
    seen.delete(v);
  }
}

/** The facts as the gate read them: a status it does not know is judged unknown, and recorded so. */
function loggedState(state: unknown): Record<string, LoggedFact> {
  const out: Record<string, LoggedFact> = {};
  if (typeof state !== "object" || state === null) return out;
  for (const name of Object.keys(state)) {
    const f = (state as Record<string, unknown>)[name];
    const entry = typeof f === "object" && f !== null ? (f as Record<string, unknown>) : {};
    const status = (FACT_STATUSES as readonly unknown[]).includes(entry.status)
      ? (entry.status as FactStatus)
      : "unknown";
    const logged: LoggedFact = { status };
    const value = jsonSafe(entry.value);
    if (value !== null && value !== undefined) logged.value = value;
    if (typeof entry.source === "string") logged.source = entry.source;
    Object.defineProperty(out, name, { value: logged, enumerable: true, writable: true });
  }
  return out;
}

let counter = 0;

/** A unique id without Node's crypto: `crypto.randomUUID` where the platform has it (browsers only in secure contexts). */
function decisionId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (typeof c?.randomUUID === "function") return c.randomUUID();
  counter = (counter + 1) % 0x100000;
  const rand = () => Math.floor(Math.random() * 0x100000000).toString(16);
  return `${Date.now().toString(16)}-${counter.toString(16)}-${rand()}${rand()}`;
}

export interface DecisionInput {
  tool: string;
  requires: readonly string[];
  state: WorldState;
  args: readonly unknown[];
  gate: GateResult;
  step: NextStep;
}

/** The record of one decision; `state` and `args` are copied as JSON, so later changes cannot alter it. */
export function decisionRecord({
  tool,
  requires,
  state,
  args,
  gate,
  step,
}: DecisionInput): GateDecisionRecord {
  return {
    schema: GATE_LOG_SCHEMA,
    id: decisionId(),
    time: new Date().toISOString(),
    tool,
    requires: [...requires],
    arguments: args.map((a) => jsonSafe(a) ?? null),
    world_state: loggedState(state),
    gate: {
      verdict: gate.verdict === "allow" ? "allow" : "block",
      unknown: [...gate.unknown],
      conflict: [...gate.conflict],
      next: gate.next,
    },
    next_step: { row: step.row as GateDecisionRecord["next_step"]["row"], message: step.message },
    implementation: "typescript",
  };
}

const REDACTED = "[redacted]";

function redactDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(redactDeep);
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v))
      Object.defineProperty(out, k, { value: redactDeep(x), enumerable: true, writable: true });
    return out;
  }
  return v === null || v === "" ? v : REDACTED;
}

/**
 * The record with every value replaced by "[redacted]": fact names, statuses and sources stay, so does
 * whether a fact had a value (what the gate decided on); arguments keep their structure and keys.
 */
export function redactDecision(record: GateDecisionRecord): GateDecisionRecord {
  const world_state: Record<string, LoggedFact> = {};
  for (const [name, f] of Object.entries(record.world_state)) {
    const logged: LoggedFact = { ...f };
    if (isUsable({ status: "known", value: f.value })) logged.value = REDACTED;
    Object.defineProperty(world_state, name, { value: logged, enumerable: true, writable: true });
  }
  const out: GateDecisionRecord = {
    ...record,
    arguments: record.arguments.map(redactDeep),
    world_state,
    redacted: true,
  };
  if (record.keyword_arguments !== undefined)
    out.keyword_arguments = redactDeep(record.keyword_arguments) as Record<string, unknown>;
  return out;
}
