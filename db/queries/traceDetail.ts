/**
 * One trace with everything the trace page shows: its run, the probe version that scored it,
 * the stored score and labels, and the original record read back for display. Primary-key
 * lookups only (traces.id, runs.id, probe_versions(probe_id, version), reviews by trace), so it
 * answers in the same time at a million traces as at ten.
 */
import { WorldStateSchema } from "../../lib/gate/facts";
import { convertWhen2Call } from "../../lib/ingest/when2call";
import { isObject } from "../../lib/isObject";
import type { NormalizedResponse } from "../../lib/probe/response";
import type { Probe } from "../../lib/probe/schema";
import type { TraceScore } from "../../lib/probe/score";
import type { Db } from "../client";
import { getProbeVersion } from "./probes";

export interface TraceRun {
  id: number;
  name: string;
  /** The pinned model. */
  model: string | null;
  params: unknown;
}

/** The original record as stored: the exact text, or a lossy decoding when it was not UTF-8. */
export interface OriginalRecord {
  text: string;
  /** Bytes as stored. */
  bytes: number;
  /** Stored as a BLOB because it was not valid UTF-8: `text` has replacement characters. */
  binary: boolean;
  /** The parsed record, when it parses. */
  parsed: unknown;
  parseError: string | null;
}

/** What the original record carries beyond the stored score, read back for display. */
export interface RereadRecord {
  /** The provider payload: `raw` of a trace record, or the whole record when it was a bare payload. */
  raw?: unknown;
  /** The trace's own facts as the record gave them (they override the probe's). */
  world_state?: unknown;
  side_effect?: unknown;
  params?: unknown;
  started_at?: unknown;
  latency_ms?: unknown;
  /** The record's `label` as written (string or per field). */
  label?: unknown;
  /** For a When2Call trace: the candidate answer category and the data set's correct one. */
  when2call?: {
    category: string | null;
    correctAnswer: unknown;
    heldOutParam: unknown;
    source: unknown;
    sourceId: unknown;
  };
}

export interface ReviewLabel {
  field: string;
  /** null: a clear. */
  label: string | null;
  reviewer: string;
  note: string;
  createdAt: string;
}

export interface TraceDetail {
  id: number;
  run: TraceRun;
  probeId: string;
  probeVersion: number;
  /** The probe as it was at that version; undefined if the version row is gone. */
  probe: Probe | undefined;
  /** The probe's current version, to say when the trace was scored with an older one. */
  probeCurrentVersion: number | null;
  extId: string | null;
  source: string;
  line: number;
  form: string;
  model: string | null;
  payloadModel: string | null;
  startedAt: string | null;
  latencyMs: number | null;
  gate: string;
  labels: Record<string, string>;
  result: TraceScore;
  response: NormalizedResponse;
  recorded: Record<string, string> | null;
  human: Record<string, string> | null;
  /** Reviewers' labels per field, newest last (empty until someone reviews). */
  reviews: ReviewLabel[];
  original: OriginalRecord;
  reread: RereadRecord;
  createdInBatch: number | null;
}

interface Statements {
  trace: ReturnType<Db["sqlite"]["prepare"]>;
  run: ReturnType<Db["sqlite"]["prepare"]>;
  current: ReturnType<Db["sqlite"]["prepare"]>;
  reviews: ReturnType<Db["sqlite"]["prepare"]>;
}

const statements = new WeakMap<Db["sqlite"], Statements>();

function prepared(db: Db): Statements {
  let s = statements.get(db.sqlite);
  if (!s) {
    s = {
      trace: db.sqlite.prepare(
        `SELECT id, run_id AS runId, batch_id AS batchId, probe_id AS probeId, probe_version AS probeVersion,
          ext_id AS extId, source, line, form, model, payload_model AS payloadModel, started_at AS startedAt,
          latency_ms AS latencyMs, gate, labels, result, response, recorded, human, original
         FROM traces WHERE id = ?`,
      ),
      run: db.sqlite.prepare("SELECT id, name, model, params FROM runs WHERE id = ?"),
      current: db.sqlite.prepare("SELECT current_version FROM probes WHERE id = ?").pluck(),
      reviews: db.sqlite.prepare(
        `SELECT field, label, reviewer, note, created_at AS createdAt FROM reviews WHERE trace_id = ?
         ORDER BY id LIMIT 200`,
      ),
    };
    statements.set(db.sqlite, s);
  }
  return s;
}

/** A trace id from a URL segment: a positive integer within SQLite's range, else null. */
export function parseTraceId(segment: string): number | null {
  if (!/^[1-9][0-9]{0,15}$/.test(segment)) return null;
  const n = Number(segment);
  return Number.isSafeInteger(n) ? n : null;
}

function parseJson<T>(text: string | null): T | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: false });

/** The original bytes as text (lossy for non-UTF-8), parsed when it parses. */
export function decodeOriginal(stored: string | Buffer | Uint8Array): OriginalRecord {
  const binary = typeof stored !== "string";
  const text = binary ? utf8.decode(stored) : stored;
  const bytes = binary ? stored.byteLength : Buffer.byteLength(stored, "utf8");
  let parsed: unknown;
  let parseError: string | null = null;
  try {
    // A byte-order mark is not part of the record.
    parsed = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    parseError = e instanceof Error ? e.message : String(e);
  }
  return { text, bytes, binary, parsed, parseError };
}

function looksLikeWhen2Call(v: Record<string, unknown>): boolean {
  return "answers" in v && "question" in v && "uuid" in v && !("response" in v) && !("raw" in v);
}

/**
 * Reads the display-only parts back from the original record, by its form: our trace format
 * (raw, world_state, side_effect, params, started_at, latency_ms), the seed runner's
 * `{label, trace}`, a bare provider payload (the payload is the raw), the seed's bare trace
 * shape, or a When2Call line (four traces share it; the trace's id names its answer).
 */
export function rereadRecord(form: string, parsed: unknown, extId: string | null): RereadRecord {
  if (!isObject(parsed)) return {};
  const out: RereadRecord = {};
  if (looksLikeWhen2Call(parsed)) {
    const conv = convertWhen2Call(parsed, 0);
    const rec = conv.ok ? conv.records.find((r) => r.id === extId) : undefined;
    const params = rec && isObject(rec.params) ? rec.params : undefined;
    if (params) out.params = params;
    out.when2call = {
      category: params && typeof params.when2call_category === "string" ? params.when2call_category : null,
      correctAnswer: parsed.correct_answer,
      heldOutParam: parsed.held_out_param ?? null,
      source: parsed.source ?? null,
      sourceId: parsed.source_id ?? null,
    };
    return out;
  }
  switch (form) {
    case "payload":
      out.raw = parsed;
      return out;
    case "seed_runner":
      if ("label" in parsed) out.label = parsed.label;
      return out;
    case "seed_trace":
      return out;
    default:
      for (const k of [
        "raw",
        "world_state",
        "side_effect",
        "params",
        "started_at",
        "latency_ms",
        "label",
      ] as const) {
        if (parsed[k] !== undefined) out[k] = parsed[k];
      }
      return out;
  }
}

/** The facts a trace's world_state gives, when it is valid (ingest rejects invalid ones). */
export function traceWorldState(reread: RereadRecord) {
  if (reread.world_state === undefined) return undefined;
  const r = WorldStateSchema.safeParse(reread.world_state);
  return r.success ? r.data : undefined;
}

/** One trace by its trace_id, or undefined. */
export function getTraceDetail(db: Db, id: number): TraceDetail | undefined {
  const s = prepared(db);
  const row = s.trace.get(id) as
    | {
        id: number;
        runId: number;
        batchId: number | null;
        probeId: string;
        probeVersion: number;
        extId: string | null;
        source: string;
        line: number;
        form: string;
        model: string | null;
        payloadModel: string | null;
        startedAt: string | null;
        latencyMs: number | null;
        gate: string;
        labels: string;
        result: string;
        response: string;
        recorded: string | null;
        human: string | null;
        original: string | Buffer;
      }
    | undefined;
  if (!row) return undefined;
  const run = s.run.get(row.runId) as {
    id: number;
    name: string;
    model: string | null;
    params: string | null;
  };
  const original = decodeOriginal(row.original);
  return {
    id: row.id,
    run: { id: run.id, name: run.name, model: run.model, params: parseJson(run.params) },
    probeId: row.probeId,
    probeVersion: row.probeVersion,
    probe: getProbeVersion(db, row.probeId, row.probeVersion),
    probeCurrentVersion: (s.current.get(row.probeId) as number | undefined) ?? null,
    extId: row.extId,
    source: row.source,
    line: row.line,
    form: row.form,
    model: row.model,
    payloadModel: row.payloadModel,
    startedAt: row.startedAt,
    latencyMs: row.latencyMs,
    gate: row.gate,
    labels: parseJson<Record<string, string>>(row.labels) ?? {},
    result: JSON.parse(row.result) as TraceScore,
    response: JSON.parse(row.response) as NormalizedResponse,
    recorded: parseJson(row.recorded),
    human: parseJson(row.human),
    reviews: s.reviews.all(row.id) as ReviewLabel[],
    original,
    reread: rereadRecord(row.form, original.parsed, row.extId),
    createdInBatch: row.batchId,
  };
}
