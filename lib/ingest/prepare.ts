import { isUtf8 } from "node:buffer";
import * as crypto from "node:crypto";
import { EMPTY_LEXICON, type Lexicon } from "../lexicon/lexicon";
import { type CompiledProbe, compileProbe } from "../probe/compile";
import type { Probe } from "../probe/schema";
import { scoreTrace, type TraceScore } from "../probe/score";
import { searchText } from "./searchText";
import { tagSignature } from "./tagSignature";
import { traceTags } from "./tags";
import type { TraceRecord } from "./traceRecord";

/** A scored record, ready for the store. */
export interface PreparedTrace {
  runName: string;
  /** The run the file's records default to: a record the store rejects counts against it. */
  defaultRun: string;
  /** The record's model (or the default); the run pins the first one it sees. */
  model: string;
  /** The run's parameters as JSON (written when the record creates or pins its run). */
  runParams: string | null;
  probeId: string;
  probeVersion: number;
  /** The lexicon version it was scored with (0: none). */
  lexiconVersion: number;
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
  /** The gate verdict (the score's, kept apart for its column). */
  gate: string;
  /** The score flags model_mismatch (counted per run). */
  modelMismatch: boolean;
  labels: string;
  result: string;
  response: string;
  recorded: string | null;
  /** What the record held that was ignored (a recorded label outside the vocabulary). */
  warnings: string[] | null;
  human: string | null;
  original: string | Buffer;
  tags: string[];
  /** The tags' signature (lib/ingest/tagSignature.ts), stored on each tag row. */
  sig: number;
  search: string;
}

/** A rejected record, kept with where it was and why. */
export interface PreparedError {
  /**
   * The run the file's records default to. The store counts the record against the run its file's
   * first good record went to, else this run if it exists, else no run.
   */
  defaultRun: string;
  file: string;
  source: string;
  line: number;
  reason: string;
  raw: string;
  hash: Buffer;
}

const CRLF = /[\r\n]/g;

type OneShotHash = (algorithm: string, data: string | Buffer, outputEncoding: "buffer") => Buffer;
/** `crypto.hash` (Node 20.12+): one call, no Hash object; it costs a third of createHash per record. */
const oneShot = (crypto as unknown as { hash?: OneShotHash }).hash;

/** SHA-256 of a buffer, or of a string as UTF-8. */
function sha256(data: string | Buffer): Buffer {
  return oneShot ? oneShot("sha256", data, "buffer") : crypto.createHash("sha256").update(data).digest();
}

/** SHA-256 of the record's bytes without line endings or byte-order mark. */
export function recordHash(bytes: Buffer): Buffer {
  if (bytes.includes(0x0a) || bytes.includes(0x0d)) {
    return crypto.createHash("sha256").update(bytes.toString("latin1").replace(CRLF, ""), "latin1").digest();
  }
  return sha256(bytes);
}

/** A trace's identity in its run: (id) when it has one, else (source, start line, content hash). */
export function recordIdentity(extId: string | null, source: string, line: number, hash: Buffer): Buffer {
  const digest =
    extId !== null
      ? sha256(`i\u0000${extId}`)
      : sha256(Buffer.concat([Buffer.from(`s\u0000${source}\u0000${line}\u0000`), hash]));
  return digest.subarray(0, 16);
}

const MAX_ERROR_RAW = 64 * 1024;

/**
 * A rejected record, its text cut to MAX_ERROR_RAW; `whole`: kept whole (a record no probe matched,
 * which is within the record limit and which "make a probe" drafts from and ingests again).
 */
export function prepareError(
  defaultRun: string,
  file: string,
  source: string,
  line: number,
  reason: string,
  bytes: Buffer,
  whole = false,
): PreparedError {
  const raw =
    bytes.length > MAX_ERROR_RAW && !whole
      ? bytes.subarray(0, MAX_ERROR_RAW).toString("utf8")
      : bytes.toString("utf8");
  return { defaultRun, file, source, line, reason, raw, hash: recordHash(bytes) };
}

/** A trace the store turned down (its run pins another model, its id holds other content), as an error. */
export function rejectedTrace(t: PreparedTrace, reason: string): PreparedError {
  const raw = typeof t.original === "string" ? t.original : t.original.toString("utf8");
  return {
    defaultRun: t.defaultRun,
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
  /** The shared lexicon to score with (default: none). */
  lexicon?: Lexicon;
  file: string;
  source: string;
  line: number;
  bytes: Buffer;
  /** The bytes decoded as UTF-8, when the caller already has them (the splitter does). */
  text?: string;
  hash?: Buffer;
}

/** What a record's score makes the store keep: the same for an ingest and for a re-score. */
export interface ScoredParts {
  /** The score itself (`result` is its JSON). */
  score: TraceScore;
  /** The gate verdict (the score's, kept apart for its column). */
  gate: string;
  /** The score flags model_mismatch (counted per run). */
  modelMismatch: boolean;
  labels: string;
  result: string;
  response: string;
  tags: string[];
  /** The tags' signature (lib/ingest/tagSignature.ts), stored on each tag row. */
  sig: number;
  search: string;
}

/**
 * Scores a record with a probe (compiled with a lexicon, or a definition: no lexicon) against its
 * run's model (`unknown` pins nothing: no model was named, so no payload can contradict it) and
 * computes the stored score, tags and search text.
 */
export function scoreRecord(
  rec: TraceRecord,
  probe: Probe | CompiledProbe,
  model: string,
  agentStep = false,
): ScoredParts {
  const id = "visible" in probe ? probe.probe.id : probe.id;
  const scored = scoreTrace(
    {
      response: rec.response,
      world_state: rec.world_state,
      side_effect: rec.side_effect,
      recorded: rec.recorded,
      model: model === "unknown" ? undefined : { pinned: model, payload: rec.payloadModel },
    },
    probe,
  );
  // An agent step (lib/ingest/agentTurns.ts) is decided by its turn, not by its record: a re-score
  // passes it on.
  const score = agentStep ? { ...scored, flags: [...scored.flags, "agent_step" as const] } : scored;
  const labels: Record<string, string> = {};
  for (const f of Object.keys(score.fields)) labels[f] = score.fields[f].label;
  const tags = traceTags(id, score, rec.human, rec.recorded, undefined, rec.response.text);
  return {
    score,
    gate: score.gate.verdict,
    modelMismatch: score.flags.includes("model_mismatch"),
    labels: JSON.stringify(labels),
    result: JSON.stringify(score),
    response: JSON.stringify(rec.response),
    tags,
    sig: tagSignature(tags),
    search: searchText(rec.response),
  };
}

/** Scores a record against its run's model and computes everything the store writes. */
export function prepareTrace(rec: TraceRecord, ctx: PrepareContext): PreparedTrace {
  const lexicon = ctx.lexicon ?? EMPTY_LEXICON;
  const scored = scoreRecord(rec, compileProbe(ctx.probe, lexicon), ctx.model);
  const hash = ctx.hash ?? recordHash(ctx.bytes);
  // Only strings and small values: a batch of these waits in memory until it is written, and
  // object graphs (the score, the parsed record) would make every young-generation GC copy them.
  return {
    runName: ctx.runName,
    defaultRun: ctx.defaultRun,
    model: ctx.model,
    // Everything the store writes is computed here, outside its transaction: what fails for one
    // record (a value that cannot be serialized) then rejects that record, not its batch.
    runParams: ctx.runParams ? JSON.stringify(ctx.runParams) : null,
    probeId: ctx.probe.id,
    probeVersion: ctx.probeVersion,
    lexiconVersion: lexicon.version,
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
    gate: scored.gate,
    modelMismatch: scored.modelMismatch,
    labels: scored.labels,
    result: scored.result,
    response: scored.response,
    recorded: rec.recorded ? JSON.stringify(rec.recorded) : null,
    warnings: rec.warnings ?? null,
    human: rec.human ? JSON.stringify(rec.human) : null,
    original: isUtf8(ctx.bytes) ? (ctx.text ?? ctx.bytes.toString("utf8")) : Buffer.from(ctx.bytes),
    tags: scored.tags,
    sig: scored.sig,
    search: scored.search,
  };
}
