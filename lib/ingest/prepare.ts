import { isUtf8 } from "node:buffer";
import { createHash } from "node:crypto";
import type { Probe } from "../probe/schema";
import { scoreTrace, type TraceScore } from "../probe/score";
import { searchText } from "./searchText";
import { traceTags } from "./tags";
import type { TraceRecord } from "./traceRecord";

/** A scored record, ready for the store. */
export interface PreparedTrace {
  runName: string;
  /** The run the file's records default to: a record the store rejects counts against it. */
  defaultRun: string;
  /** The record's model (or the default); the run pins the first one it sees. */
  model: string;
  runParams: Record<string, unknown> | null;
  probeId: string;
  probeVersion: number;
  extId: string | null;
  identity: Buffer;
  hash: Buffer;
  file: string;
  source: string;
  line: number;
  form: string;
  payloadModel: string | null;
  startedAt: string | null;
  latencyMs: number | null;
  score: TraceScore;
  labels: string;
  result: string;
  response: string;
  recorded: string | null;
  human: string | null;
  original: string | Buffer;
  tags: string[];
  search: string;
}

/** A rejected record, kept with where it was and why. */
export interface PreparedError {
  /** The run the file's records default to. */
  runName: string;
  file: string;
  source: string;
  line: number;
  reason: string;
  raw: string;
  hash: Buffer;
}

const CRLF = /[\r\n]/g;

/** SHA-256 of the record's bytes without line endings or byte-order mark. */
export function recordHash(bytes: Buffer): Buffer {
  const h = createHash("sha256");
  if (bytes.includes(0x0a) || bytes.includes(0x0d))
    h.update(bytes.toString("latin1").replace(CRLF, ""), "latin1");
  else h.update(bytes);
  return h.digest();
}

/** A trace's identity in its run: (id) when it has one, else (source, start line, content hash). */
export function recordIdentity(extId: string | null, source: string, line: number, hash: Buffer): Buffer {
  const h = createHash("sha256");
  if (extId !== null) h.update(`i\u0000${extId}`);
  else h.update(`s\u0000${source}\u0000${line}\u0000`).update(hash);
  return h.digest().subarray(0, 16);
}

const MAX_ERROR_RAW = 64 * 1024;

export function prepareError(
  runName: string,
  file: string,
  source: string,
  line: number,
  reason: string,
  bytes: Buffer,
): PreparedError {
  const raw =
    bytes.length > MAX_ERROR_RAW ? bytes.subarray(0, MAX_ERROR_RAW).toString("utf8") : bytes.toString("utf8");
  return { runName, file, source, line, reason, raw, hash: recordHash(bytes) };
}

/** A trace the store turned down (its run pins another model, its id holds other content), as an error. */
export function rejectedTrace(t: PreparedTrace, reason: string): PreparedError {
  const raw = typeof t.original === "string" ? t.original : t.original.toString("utf8");
  return {
    runName: t.defaultRun,
    file: t.file,
    source: t.source,
    line: t.line,
    reason,
    raw: raw.length > MAX_ERROR_RAW ? raw.slice(0, MAX_ERROR_RAW) : raw,
    hash: t.hash,
  };
}

export interface PrepareContext {
  runName: string;
  defaultRun: string;
  model: string;
  runParams: Record<string, unknown> | null;
  probe: Probe;
  probeVersion: number;
  file: string;
  source: string;
  line: number;
  bytes: Buffer;
  hash?: Buffer;
}

/** Scores a record against its run's model and computes everything the store writes. */
export function prepareTrace(rec: TraceRecord, ctx: PrepareContext): PreparedTrace {
  const score = scoreTrace(
    {
      response: rec.response,
      world_state: rec.world_state,
      side_effect: rec.side_effect,
      recorded: rec.recorded,
      // "unknown" pins nothing: no model was named, so no payload can contradict it.
      model: ctx.model === "unknown" ? undefined : { pinned: ctx.model, payload: rec.payloadModel },
    },
    ctx.probe,
  );
  const hash = ctx.hash ?? recordHash(ctx.bytes);
  const labels: Record<string, string> = {};
  for (const [f, s] of Object.entries(score.fields)) labels[f] = s.label;
  return {
    runName: ctx.runName,
    defaultRun: ctx.defaultRun,
    model: ctx.model,
    runParams: ctx.runParams,
    probeId: ctx.probe.id,
    probeVersion: ctx.probeVersion,
    extId: rec.id,
    identity: recordIdentity(rec.id, ctx.source, ctx.line, hash),
    hash,
    file: ctx.file,
    source: ctx.source,
    line: ctx.line,
    form: rec.form,
    payloadModel: rec.payloadModel,
    startedAt: rec.started_at ?? null,
    latencyMs: rec.latency_ms ?? null,
    score,
    labels: JSON.stringify(labels),
    result: JSON.stringify(score),
    response: JSON.stringify(rec.response),
    recorded: rec.recorded ? JSON.stringify(rec.recorded) : null,
    human: rec.human ? JSON.stringify(rec.human) : null,
    original: isUtf8(ctx.bytes) ? ctx.bytes.toString("utf8") : Buffer.from(ctx.bytes),
    tags: traceTags(ctx.probe.id, score, rec.human, rec.recorded),
    search: searchText(rec.response),
  };
}
