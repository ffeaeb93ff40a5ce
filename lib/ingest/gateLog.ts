import { isUtf8 } from "node:buffer";
import { decideGate } from "../gate/decide";
import { GATE_LOG_SCHEMA, type GateDecisionRecord } from "../gate/decisionLog";
import { GateDecisionRecordSchema } from "../gate/decisionRecordSchema";
import { isObject } from "../isObject";
import type { NormalizedResponse } from "../probe/response";
import { describeIssues } from "../probe/schema";
import { GATE_LOG_FORM, GATE_LOG_PROBE, GATE_MISMATCH } from "./gateLogForm";
import { type PreparedTrace, recordHash, recordIdentity } from "./prepare";
import { searchText } from "./searchText";
import { tagSignature } from "./tagSignature";
import { tag } from "./tags";

export {
  GATE_LOG_FORM,
  GATE_LOG_PROBE,
  GATE_MISMATCH,
  RUN_KINDS,
  type RunKind,
  runKindOfForm,
} from "./gateLogForm";

/**
 * Gate decision logs (`assumeprobe/gate@1` lines, written by `assumeprobe/gate`'s sinks and the
 * Python twin) as traces of a gate-log run: the recorded verdict kept, our gate re-run on the
 * recorded world state and call, and the trace flagged `gate_mismatch` where the two differ.
 */

/** A decision record is recognised by its content: the record form's `schema` marker. */
export function isGateDecisionRecord(v: unknown): boolean {
  return isObject(v) && v.schema === GATE_LOG_SCHEMA;
}

/** A gate's verdict in the record form's shape. */
export interface LoggedVerdict {
  verdict: "allow" | "block";
  unknown: string[];
  conflict: string[];
  next: "ask" | "stop" | null;
}

/** What a gate-log trace's `result` holds: our verdict, the recorded one, and the flags. */
export interface GateLogResult {
  /** Always empty: a decision probes no field. Kept so the result reads like a score. */
  fields: Record<string, never>;
  flags: string[];
  /** Our gate's verdict on the recorded state and call. */
  gate: LoggedVerdict;
  /** The verdict the agent's gate recorded (what happened). */
  recorded_gate: LoggedVerdict;
}

/** Our gate on a decision's recorded world state and required facts: the scorer's decideGate. */
export function ourVerdict(record: Pick<GateDecisionRecord, "requires" | "world_state">): LoggedVerdict {
  const g = decideGate({
    called: true,
    mutating: true,
    argumentsError: false,
    requires: record.requires,
    facts: record.world_state,
  });
  return {
    verdict: g.verdict === "allow" ? "allow" : "block",
    unknown: [...g.unknown],
    conflict: [...g.conflict],
    next: g.next,
  };
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** True when two verdicts differ in the verdict, the fields that block, or the next step. */
export function verdictsDiffer(a: LoggedVerdict, b: LoggedVerdict): boolean {
  return (
    a.verdict !== b.verdict ||
    a.next !== b.next ||
    !sameList(a.unknown, b.unknown) ||
    !sameList(a.conflict, b.conflict)
  );
}

/** Where a decision record came from and where it goes (the same parts prepareTrace is given). */
export interface GateLogContext {
  defaultRun: string;
  /** The model for a record that names none. */
  model: string;
  file: string;
  source: string;
  line: number;
  bytes: Buffer;
  text?: string;
}

export type PreparedDecision = { ok: true; trace: PreparedTrace } | { ok: false; reason: string };

/** A decision record read, checked against the record form and re-decided, ready for the store. */
export function prepareGateDecision(value: unknown, ctx: GateLogContext): PreparedDecision {
  const parsed = GateDecisionRecordSchema.safeParse(value);
  if (!parsed.success) return { ok: false, reason: `gate decision: ${describeIssues(parsed.error)}` };
  const r = parsed.data;
  const recorded: LoggedVerdict = {
    verdict: r.gate.verdict,
    unknown: r.gate.unknown,
    conflict: r.gate.conflict,
    next: r.gate.next,
  };
  const ours = ourVerdict(r);
  const flags = verdictsDiffer(recorded, ours) ? [GATE_MISMATCH] : [];
  const result: GateLogResult = { fields: {}, flags, gate: ours, recorded_gate: recorded };
  // The call as the run page previews it, `tool(["room_9"])`: the positional arguments, with the
  // keyword ones beside them when the Python twin recorded any.
  const call: unknown =
    r.keyword_arguments === undefined
      ? r.arguments
      : { arguments: r.arguments, keyword_arguments: r.keyword_arguments };
  const response: NormalizedResponse = {
    text: null,
    tool_calls: [{ name: r.tool, arguments: call }],
    fenced: false,
  };
  const tags = [tag.probe(GATE_LOG_PROBE), tag.gate(recorded.verdict), tag.tool(r.tool)];
  for (const f of flags) tags.push(tag.flag(f));
  for (const name of recorded.unknown) tags.push(tag.gateUnknown(name));
  for (const name of recorded.conflict) tags.push(tag.gateConflict(name));
  const unique = [...new Set(tags)];
  const hash = recordHash(ctx.bytes);
  return {
    ok: true,
    trace: {
      runName: r.run ?? ctx.defaultRun,
      defaultRun: ctx.defaultRun,
      model: r.model ?? ctx.model,
      runParams: null,
      warnings: null,
      probeId: GATE_LOG_PROBE,
      probeVersion: 0,
      lexiconVersion: 0,
      extId: r.id,
      identity: recordIdentity(r.id, ctx.source, ctx.line, hash),
      hash,
      file: ctx.file,
      source: ctx.source,
      line: ctx.line,
      form: GATE_LOG_FORM,
      payloadModel: null,
      startedAt: r.time,
      latencyMs: null,
      gate: recorded.verdict,
      modelMismatch: false,
      labels: "{}",
      result: JSON.stringify(result),
      response: JSON.stringify(response),
      recorded: null,
      human: null,
      original: isUtf8(ctx.bytes) ? (ctx.text ?? ctx.bytes.toString("utf8")) : Buffer.from(ctx.bytes),
      tags: unique,
      sig: tagSignature(unique),
      search: searchText(response),
    },
  };
}

/** A stored gate-log result read back (null when the JSON is not one). */
export function readGateLogResult(json: string): GateLogResult | null {
  try {
    const v = JSON.parse(json) as Partial<GateLogResult>;
    return isObject(v) && isObject(v.gate) && isObject(v.recorded_gate) ? (v as GateLogResult) : null;
  } catch {
    return null;
  }
}
