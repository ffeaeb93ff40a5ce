/**
 * One trace with everything the trace page shows: its run, the probe version that scored it,
 * the stored score and labels, and the original record read back for display. Primary-key
 * lookups only (traces.id, runs.id, probe_versions(probe_id, version), reviews by trace), so it
 * answers in the same time at a million traces as at ten.
 *
 * Every stored JSON column is read to a budget (lib/budget): a record within the ingest limits
 * can hold 500,000 keys, and parsing it whole took seconds and gigabytes on every view. What a
 * part leaves out is marked on it (`cutOf`) and counted; the probed and required fields are kept
 * wherever they are. The reads pause between slices, so other requests run meanwhile.
 */
import { type JsonBudget, PAGE_BUDGET } from "../../lib/budget/jsonBudget";
import { readJson } from "../../lib/budget/readJson";
import { WorldStateSchema } from "../../lib/gate/factSchema";
import { convertWhen2Call } from "../../lib/ingest/when2call";
import { isObject } from "../../lib/isObject";
import { EMPTY_LEXICON, type Lexicon } from "../../lib/lexicon/lexicon";
import { type CompiledProbe, compileProbe } from "../../lib/probe/compile";
import type { NormalizedResponse } from "../../lib/probe/response";
import type { Probe } from "../../lib/probe/schema";
import type { TraceScore } from "../../lib/probe/score";
import type { Db } from "../client";
import { lexiconAt } from "./lexicon";
import { ORIGINAL_OF } from "./originals";
import { loadProbeVersion } from "./probes";

export interface TraceRun {
  id: number;
  name: string;
  /** The pinned model. */
  model: string | null;
  params: unknown;
}

/** The original record as stored: the exact text, or a lossy decoding when it was not UTF-8. */
export interface OriginalRecord {
  /** The whole text (one string: what a page shows of it is cut where it is rendered). */
  text: string;
  /** Bytes as stored. */
  bytes: number;
  /** Stored as a BLOB because it was not valid UTF-8: `text` has replacement characters. */
  binary: boolean;
  /** The parsed record, when it parses, read to PAGE_BUDGET (cuts marked, see lib/budget). */
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
  /** The lexicon version that scored it (0: none), and that lexicon (empty when the version is gone). */
  lexiconVersion: number;
  lexicon: Lexicon;
  /** The probe compiled with that lexicon, as the scorer read it; null without the probe. */
  compiled: CompiledProbe | null;
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

/** The columns that can hold megabytes: each is read on its own, between turns of the event loop. */
const BIG_COLUMNS = ["labels", "result", "response", "recorded", "human", "original"] as const;
type BigColumn = (typeof BIG_COLUMNS)[number];

interface Statements {
  trace: ReturnType<Db["sqlite"]["prepare"]>;
  columns: Record<BigColumn, ReturnType<Db["sqlite"]["prepare"]>>;
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
          lexicon_version AS lexiconVersion, ext_id AS extId, source, line, form, model, payload_model AS payloadModel, started_at AS startedAt,
          latency_ms AS latencyMs, gate
         FROM traces WHERE id = ?`,
      ),
      columns: Object.fromEntries(
        BIG_COLUMNS.map((c) => [
          c,
          db.sqlite.prepare(`SELECT ${c === "original" ? ORIGINAL_OF : c} FROM traces WHERE id = ?`).pluck(),
        ]),
      ) as Record<BigColumn, ReturnType<Db["sqlite"]["prepare"]>>,
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

/** The top-level parts of a record that the page reads on their own, each to its own budget. */
const REREAD_KEYS = ["raw", "world_state", "side_effect", "params", "label"] as const;
const REREAD_SPANS: ReadonlySet<string> = new Set(REREAD_KEYS);
/** A record's shape is told by these top-level keys, wherever they are among thousands. */
const SHAPE_KEYS = ["answers", "question", "uuid", "response", "trace", "label", ...REREAD_KEYS];

/** The original bytes as text (lossy for non-UTF-8), read to a budget when it parses. */
export async function decodeOriginal(
  stored: string | Buffer | Uint8Array,
): Promise<OriginalRecord & { spans: Map<string, [number, number]>; body: string }> {
  const binary = typeof stored !== "string";
  const text = binary ? utf8.decode(stored) : stored;
  const bytes = binary ? stored.byteLength : Buffer.byteLength(stored, "utf8");
  // A byte-order mark is not part of the record.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let parsed: unknown;
  let parseError: string | null = null;
  let spans = new Map<string, [number, number]>();
  try {
    const r = await readJson(
      body,
      { ...PAGE_BUDGET, keep: new Set(SHAPE_KEYS), keepDepth: 0 },
      { spans: REREAD_SPANS },
    );
    parsed = r.value;
    spans = r.spans;
  } catch (e) {
    parseError = e instanceof Error ? e.message : String(e);
  }
  return { text, bytes, binary, parsed, parseError, spans, body };
}

function looksLikeWhen2Call(v: Record<string, unknown>): boolean {
  return "answers" in v && "question" in v && "uuid" in v && !("response" in v) && !("raw" in v);
}

/**
 * Reads the display-only parts back from the original record, by its form: our trace format
 * (raw, world_state, side_effect, params, started_at, latency_ms), the seed runner's
 * `{label, trace}`, a bare provider payload (the payload is the raw), the seed's bare trace
 * shape, or a When2Call line (four traces share it; the trace's id names its answer). Each part
 * is read again from its place in the text (`spans`) to its own budget, keeping `keep` (the
 * probed and required fields) wherever they are; without spans, the parts of `parsed` are used.
 */
export async function rereadRecord(
  form: string,
  parsed: unknown,
  extId: string | null,
  source?: { body: string; spans: Map<string, [number, number]>; keep: ReadonlySet<string> },
): Promise<RereadRecord> {
  if (!isObject(parsed)) return {};
  const out: RereadRecord = {};
  if (looksLikeWhen2Call(parsed)) {
    // The conversion needs the whole line (its tools and answers); the data set's lines are small.
    const whole =
      source && source.body.length <= 256 * 1024
        ? (JSON.parse(source.body) as Record<string, unknown>)
        : parsed;
    const conv = convertWhen2Call(whole, 0);
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
  const part = async (k: (typeof REREAD_KEYS)[number]): Promise<unknown> => {
    const span = source?.spans.get(k);
    if (!source || !span) return parsed[k];
    const budget: JsonBudget =
      k === "raw" || k === "params" ? PAGE_BUDGET : { ...PAGE_BUDGET, keep: source.keep };
    return (await readJson(source.body.slice(span[0], span[1]), budget)).value;
  };
  switch (form) {
    case "payload":
      out.raw = parsed;
      return out;
    case "seed_runner":
      if ("label" in parsed) out.label = await part("label");
      return out;
    case "seed_trace":
      return out;
    default:
      for (const k of REREAD_KEYS) {
        if (parsed[k] !== undefined) out[k] = await part(k);
      }
      for (const k of ["started_at", "latency_ms"] as const) {
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

/** Labels per field (recorded, human): only the fields the page shows are looked up. */
const LABELS_BUDGET: JsonBudget = { entries: 50, nodes: 50, depth: 2 };

/**
 * One trace by its trace_id, or undefined. Its JSON is read to PAGE_BUDGET per part (see the top
 * of this file): the probed and required fields are always kept, the rest is cut and counted.
 */
export async function getTraceDetail(db: Db, id: number): Promise<TraceDetail | undefined> {
  const s = prepared(db);
  const row = s.trace.get(id) as
    | {
        id: number;
        runId: number;
        batchId: number | null;
        probeId: string;
        probeVersion: number;
        lexiconVersion: number;
        extId: string | null;
        source: string;
        line: number;
        form: string;
        model: string | null;
        payloadModel: string | null;
        startedAt: string | null;
        latencyMs: number | null;
        gate: string;
      }
    | undefined;
  if (!row) return undefined;
  /** One stored column, read after other requests had a turn (a column can be 8 MB). */
  const column = async <T>(c: BigColumn): Promise<T> => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    return s.columns[c].get(id) as T;
  };
  const run = s.run.get(row.runId) as {
    id: number;
    name: string;
    model: string | null;
    params: string | null;
  };
  const probe = await loadProbeVersion(db, row.probeId, row.probeVersion);
  const lexicon = lexiconAt(db, row.lexiconVersion) ?? EMPTY_LEXICON;
  const compiled = probe ? compileProbe(probe, lexicon) : null;
  const result = (await readJson(await column<string>("result"), PAGE_BUDGET)).value as TraceScore;
  // The fields the page looks up: the probed ones (as scored) and the ones the gate requires.
  const keep = new Set([
    ...Object.keys(result.fields ?? {}),
    ...(compiled?.fields ?? []),
    ...(compiled?.requires ?? []),
  ]);
  const labelsOf = async (text: string | null) =>
    text === null
      ? null
      : ((await readJson(text, { ...LABELS_BUDGET, keep })).value as Record<string, string>);
  const original = await decodeOriginal(await column<string | Buffer>("original"));
  const { spans, body, ...originalRecord } = original;
  return {
    id: row.id,
    run: { id: run.id, name: run.name, model: run.model, params: parseJson(run.params) },
    probeId: row.probeId,
    probeVersion: row.probeVersion,
    probe,
    probeCurrentVersion: (s.current.get(row.probeId) as number | undefined) ?? null,
    lexiconVersion: row.lexiconVersion,
    lexicon,
    compiled,
    extId: row.extId,
    source: row.source,
    line: row.line,
    form: row.form,
    model: row.model,
    payloadModel: row.payloadModel,
    startedAt: row.startedAt,
    latencyMs: row.latencyMs,
    gate: row.gate,
    labels: (await labelsOf(await column("labels"))) ?? {},
    result,
    // The calls' arguments are at level 3: {tool_calls: [{arguments: {...}}]}.
    response: (await readJson(await column<string>("response"), { ...PAGE_BUDGET, keep, keepDepth: 3 }))
      .value as NormalizedResponse,
    recorded: await labelsOf(await column("recorded")),
    human: await labelsOf(await column("human")),
    reviews: s.reviews.all(row.id) as ReviewLabel[],
    original: originalRecord,
    reread: await rereadRecord(row.form, original.parsed, row.extId, { body, spans, keep }),
    createdInBatch: row.batchId,
  };
}

/** A trace's stored texts, for its downloads and paged views; undefined when there is no such trace. */
export function getTraceTexts(
  db: Db,
  id: number,
): { original: string | Buffer; response: string; form: string } | undefined {
  return db.sqlite
    .prepare(`SELECT ${ORIGINAL_OF} AS original, response, form FROM traces WHERE id = ?`)
    .get(id) as { original: string | Buffer; response: string; form: string } | undefined;
}

/** The original record as text (lossy for non-UTF-8), without a byte-order mark. */
export function originalBody(stored: string | Buffer): string {
  const text = typeof stored === "string" ? stored : utf8.decode(stored);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
