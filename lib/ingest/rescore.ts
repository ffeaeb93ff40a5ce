import { isObject } from "../isObject";
import type { CompiledProbe } from "../probe/compile";
import type { Probe } from "../probe/schema";
import type { TraceScore } from "../probe/score";
import { isAgentStep } from "./agentTurns";
import { type ScoredParts, scoreRecord } from "./prepare";
import { isSpanForm, readSpan, type SpanForm, spanParts } from "./spanRecord";
import { tagSignature } from "./tagSignature";
import { type CurrentReviewLabels, traceTags } from "./tags";
import { type Interpreted, interpretRecord, type RecordForm, type TraceRecord } from "./traceRecord";
import { convertWhen2Call } from "./when2call";

/**
 * Re-scoring a stored trace: its original record is read again by today's parser and scored
 * with a probe (the version that scored it, or another configuration), exactly as an ingest
 * would score it. Pure; db/queries/rescore.ts writes what changed.
 */
export interface StoredTrace {
  id: number;
  probeId: string;
  form: string;
  extId: string | null;
  /** The record's model (or the ingest's default): the run's pinned model. */
  model: string | null;
  original: string | Uint8Array;
  result: string;
  response: string;
}

/** What a stored trace's tags are read from beside its score: its probe, its recorded and imported labels (JSON by field, or null). */
export interface StoredLabels {
  probeId: string;
  recorded: string | null;
  human: string | null;
}

export type Rescored =
  | { ok: true; scored: ScoredParts; changed: boolean; responseChanged: boolean }
  | { ok: false; reason: string };

const utf8 = new TextDecoder("utf-8", { fatal: false });

/** A When2Call line (four traces share it): its answers become the traces, not the line itself. */
function isWhen2CallLine(v: Record<string, unknown>): boolean {
  return "answers" in v && "question" in v && "uuid" in v && !("response" in v) && !("raw" in v);
}

/** The record value a stored trace was read from: the original as stored, or its When2Call answer. */
function recordValue(t: StoredTrace): unknown {
  const text = typeof t.original === "string" ? t.original : utf8.decode(t.original);
  let parsed: unknown;
  try {
    // A byte-order mark is not part of the record.
    parsed = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    throw new RereadError(`the original record does not parse: ${(e as Error).message}`);
  }
  if (!isObject(parsed) || !isWhen2CallLine(parsed)) return parsed;
  const conv = convertWhen2Call(parsed, 0);
  if (!conv.ok) throw new RereadError(`the When2Call line no longer converts: ${conv.reason}`);
  const rec = conv.records.find((r) => r.id === t.extId);
  if (!rec) throw new RereadError(`the When2Call line has no answer ${t.extId}`);
  return rec;
}

class RereadError extends Error {}

/** A stored span (OTLP, Phoenix) read again by its format's reader, with the probe that scored it. */
function spanRecordOf(form: SpanForm, value: unknown, probe: Probe): Interpreted {
  const read = readSpan(form, value);
  if (read.kind === "skip") return { ok: false, reason: "the span is no longer read as a model generation" };
  if (read.kind === "error") return { ok: false, reason: read.reason };
  const parts = spanParts(read.generation);
  if ("error" in parts) return { ok: false, reason: parts.error };
  const record = { form, run: null, probe, probeInline: false, ...parts };
  return { ok: true, record };
}

/**
 * A stored trace whose original matches none of the record shapes today: it was misread before
 * each shape was told by its own fields (a Langfuse export's `trace` read as the seed runner's,
 * an empty answer scored DRIFT with no flag). An ingest now rejects such a record; the stored
 * trace is kept, with no calls and no text, and flagged `unrecognized_payload`, so it no longer
 * passes for a model's empty answer.
 */
function unreadRecord(t: StoredTrace, value: unknown, probe: Probe): TraceRecord {
  return {
    form: t.form as RecordForm,
    id: t.extId,
    run: null,
    model: null,
    probe,
    probeInline: false,
    response: { text: null, tool_calls: [], fenced: false, unrecognized: true },
    payloadModel: null,
    raw: value,
  };
}

const parseOr = <T>(s: string | null): T | undefined => (s === null ? undefined : (JSON.parse(s) as T));

/**
 * A stored trace's tags under a score: tags are a pure function of the score, its imported and
 * recorded labels, its current reviews and its response's text (the review queue's rules read it).
 */
export function storedTags(
  t: StoredLabels,
  score: TraceScore,
  reviews: CurrentReviewLabels | undefined,
  response: string | null,
): string[] {
  const text = parseOr<{ text?: string | null }>(response)?.text ?? null;
  return traceTags(t.probeId, score, parseOr(t.human), parseOr(t.recorded), reviews, text);
}

/**
 * A re-score's result with the tags of the trace's current reviews: scoring alone knows only the
 * imported labels, and a reviewed field's human-label and queue tags follow its review.
 */
export function withReviews(
  r: Rescored,
  t: StoredLabels,
  reviews: CurrentReviewLabels | undefined,
): Rescored {
  if (!r.ok || !reviews) return r;
  const s = r.scored;
  const tags = storedTags(t, s.score, reviews, s.response);
  return { ...r, scored: { ...s, tags, sig: tagSignature(tags) } };
}

/**
 * Scores a stored trace again with `probe` (compiled with a lexicon, or a definition: no
 * lexicon); `changed` when its stored score or normalized response differs from what is stored
 * now. Never throws: an original that no longer reads gives a reason and is left as it is.
 */
export function rescoreStored(t: StoredTrace, probe: Probe | CompiledProbe): Rescored {
  const definition = "visible" in probe ? probe.probe : probe;
  try {
    const value = recordValue(t);
    let r = isSpanForm(t.form)
      ? spanRecordOf(t.form, value, definition)
      : interpretRecord(value, { probe: t.probeId }, () => definition);
    if (!r.ok && r.misread) r = { ok: true, record: unreadRecord(t, value, definition) };
    if (!r.ok) return { ok: false, reason: `the original record no longer reads: ${r.reason}` };
    const scored = scoreRecord(r.record, probe, t.model ?? "unknown", isAgentStep(t.result));
    const responseChanged = scored.response !== t.response;
    const changed = responseChanged || scored.result !== t.result;
    return { ok: true, scored, changed, responseChanged };
  } catch (e) {
    if (e instanceof RereadError) return { ok: false, reason: e.message };
    // JSON nested thousands deep parses, but cannot be scored without blowing the stack.
    if (e instanceof RangeError) return { ok: false, reason: `the record cannot be processed: ${e.message}` };
    throw e;
  }
}
