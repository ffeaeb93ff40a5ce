import { z } from "zod";
import { WorldStateSchema } from "../gate/factSchema";
import type { WorldState } from "../gate/facts";
import { isObject } from "../isObject";
import { bareLabelField, compileProbe } from "../probe/compile";
import {
  looksLikeProviderPayload,
  normalizeExplicit,
  normalizePayload,
  payloadLatencyMs,
  payloadModelOf,
  recoverFencedResponse,
} from "../probe/normalize";
import type { NormalizedResponse } from "../probe/response";
import {
  describeIssues,
  LABELS,
  type Label,
  PROBE_ID,
  type Probe,
  ProbeIdSchema,
  ProbeSchema,
} from "../probe/schema";

/** The forms a JSONL record can take (DESIGN.md, "Trace file format"). */
export type RecordForm =
  | "trace"
  | "seed_runner"
  | "seed_trace"
  | "payload"
  | "otlp"
  | "phoenix"
  | "promptfoo"
  | "langfuse"
  | "inspect";

const LabelNameSchema = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(LABELS, { error: () => `a label is one of ${LABELS.join(", ")}` }));

const TraceEnvelopeSchema = z.object({
  schema: z.literal("assumeprobe/trace@1", { error: 'schema must be "assumeprobe/trace@1"' }).optional(),
  id: z.union([z.string().min(1).max(500), z.number().transform(String)]).optional(),
  run: z.string().min(1).max(200).optional(),
  model: z.string().min(1).max(300).optional(),
  probe: z.union([ProbeIdSchema, z.record(z.string(), z.unknown())]).optional(),
  label: z.union([z.string(), z.record(z.string(), z.string())]).optional(),
  human: z.record(z.string(), LabelNameSchema).optional(),
  world_state: WorldStateSchema.optional(),
  side_effect: z.object({ written: z.unknown() }).optional(),
  started_at: z.string().max(100).optional(),
  latency_ms: z.number().nonnegative().finite().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
});

type Envelope = z.infer<typeof TraceEnvelopeSchema>;

/** A string zod's `.min(min).max(max)` certainly accepts (zod counts code points, never more than units). */
function fits(v: unknown, min: number, max: number): v is string {
  return typeof v === "string" && v.length >= min && v.length <= max;
}

/**
 * TraceEnvelopeSchema's output for the common envelope (string id, run, model, probe id and
 * label, no human labels, world state or side effect), without zod's per-record cost; null for
 * anything else, which zod then parses (and words the error). Equal to zod's result whenever it
 * answers: every check here is one zod makes, and only values zod accepts as they are get through.
 */
function plainEnvelope(v: Record<string, unknown>): Envelope | null {
  const e: Envelope = {};
  if (v.schema !== undefined) {
    if (v.schema !== "assumeprobe/trace@1") return null;
    e.schema = v.schema;
  }
  if (v.id !== undefined) {
    if (!fits(v.id, 1, 500)) return null;
    e.id = v.id;
  }
  if (v.run !== undefined) {
    if (!fits(v.run, 1, 200)) return null;
    e.run = v.run;
  }
  if (v.model !== undefined) {
    if (!fits(v.model, 1, 300)) return null;
    e.model = v.model;
  }
  if (v.probe !== undefined) {
    if (!fits(v.probe, 1, 200) || !PROBE_ID.test(v.probe)) return null;
    e.probe = v.probe;
  }
  if (v.label !== undefined) {
    if (typeof v.label !== "string") return null;
    e.label = v.label;
  }
  if (v.human !== undefined || v.world_state !== undefined || v.side_effect !== undefined) return null;
  if (v.started_at !== undefined) {
    if (!fits(v.started_at, 0, 100)) return null;
    e.started_at = v.started_at;
  }
  if (v.latency_ms !== undefined) {
    const l = v.latency_ms;
    if (typeof l !== "number" || !Number.isFinite(l) || l < 0) return null;
    e.latency_ms = l;
  }
  if (v.params !== undefined) {
    const p = v.params;
    // What z.record copies as it is: a plain object with no key zod treats specially.
    if (
      typeof p !== "object" ||
      p === null ||
      Object.getPrototypeOf(p) !== Object.prototype ||
      Object.hasOwn(p, "__proto__") ||
      Object.hasOwn(p, "constructor") ||
      Object.getOwnPropertySymbols(p).length > 0
    ) {
      return null;
    }
    e.params = { ...(p as Record<string, unknown>) };
  }
  return e;
}

export interface TraceRecord {
  form: RecordForm;
  /** The record's own id, when it has one. */
  id: string | null;
  /** The run the record names, when it names one. */
  run: string | null;
  /** The model the record names, when it names one. */
  model: string | null;
  probe: Probe;
  /** The probe came inline in the record rather than by id. */
  probeInline: boolean;
  response: NormalizedResponse;
  /** The model the provider payload names. */
  payloadModel: string | null;
  /** The provider payload, kept for display. */
  raw: unknown;
  world_state?: WorldState;
  side_effect?: { written?: unknown };
  /** Labels the producing harness recorded, per probed field (only those of the vocabulary). */
  recorded?: Record<string, string>;
  /** What was read and ignored (a recorded label outside the vocabulary): the ingest lists each. */
  warnings?: string[];
  /** Imported human labels per field. */
  human?: Record<string, Label>;
  started_at?: string;
  latency_ms?: number;
  params?: Record<string, unknown>;
}

export interface RecordDefaults {
  /** Probe for records that name none (`--probe`, else `schedule_window`). */
  probe: string;
}

export type ProbeLookup = (id: string) => Probe | undefined;
/**
 * A rejection; `misread` when the record matches no shape but has the key an older version took
 * for one (a `trace` or a `response` holding none of text, tool_call, tool_calls): stored before
 * the shapes were told by their own fields, it was scored as an empty answer.
 */
export type Interpreted = { ok: true; record: TraceRecord } | { ok: false; reason: string; misread?: true };

const fail = (reason: string): Interpreted => ({ ok: false, reason });

/** A string label applies to `timezone` when probed, else to the first probed field. */
export function recordedPerField(
  label: string | Record<string, string>,
  probe: Probe,
): Record<string, string> {
  if (typeof label !== "string") return { ...label };
  const target = bareLabelField(compileProbe(probe).fields);
  return target === null ? {} : { [target]: label };
}

/**
 * The recorded labels of the vocabulary (in any letter case: `ask` is ASK), and a warning for each
 * other one, which is ignored: stored, it read as a recorded label no filter could name.
 */
export function knownLabels(recorded: Record<string, string>): {
  kept: Record<string, string>;
  ignored: string[];
} {
  const kept: Record<string, string> = {};
  const ignored: string[] = [];
  for (const [field, label] of Object.entries(recorded)) {
    if ((LABELS as readonly string[]).includes(label.toUpperCase())) kept[field] = label;
    else
      ignored.push(
        `recorded label "${label.slice(0, 50)}"${label.length > 50 ? "…" : ""} of ${field} is not one of ${LABELS.join(", ")}: ignored`,
      );
  }
  return { kept, ignored };
}

function resolveProbe(
  ref: string | Record<string, unknown> | undefined,
  defaults: RecordDefaults,
  lookup: ProbeLookup,
): { probe: Probe; inline: boolean } | string {
  if (ref === undefined || typeof ref === "string") {
    const id = ref ?? defaults.probe;
    const probe = lookup(id);
    return probe ? { probe, inline: false } : `unknown probe "${id}"`;
  }
  const parsed = ProbeSchema.safeParse(ref);
  if (!parsed.success) return `inline probe: ${describeIssues(parsed.error)}`;
  return { probe: parsed.data, inline: true };
}

/** The fields of our `response` and of the seed's trace shape: one of them must be there. */
const RESPONSE_FIELDS = ["text", "tool_call", "tool_calls"] as const;

/** An object holding text, tool_call or tool_calls (our response, or the seed's trace shape). */
function holdsResponseFields(v: unknown): boolean {
  return isObject(v) && RESPONSE_FIELDS.some((k) => Object.hasOwn(v, k));
}

const present = (v: unknown): boolean => v !== undefined && v !== null;

const SHAPES =
  "expected a trace record (response {text, tool_call or tool_calls}, or raw), the seed runner's {label, trace} " +
  "(trace holding text or tool_call), the seed's {text, tool_call}, or a provider payload " +
  "(OpenAI, Anthropic, Gemini, Bedrock Converse, Cohere v2, Ollama /api/chat)";

/** The first keys of an object, cut short, to say what a record that matches no shape holds. */
function keysOf(v: Record<string, unknown>): string {
  const keys: string[] = [];
  for (const k in v) {
    if (keys.length === 8) {
      keys.push("…");
      break;
    }
    keys.push(k.length > 40 ? `${k.slice(0, 40)}…` : k);
  }
  return keys.length === 0 ? "nothing" : keys.join(", ");
}

type Shape = { form: RecordForm; source: unknown; explicit: boolean } | { reason: string; misread: boolean };

/**
 * Which shape a record is, told by that shape's own fields, never by one key name (DESIGN.md,
 * "Traces from other tools"): our `response` holds text, tool_call or tool_calls (else `raw` is
 * read); the seed runner's `trace` holds them; a provider payload has its own nesting and a
 * companion field; the seed's bare shape holds them at the top. A Langfuse export's `trace`, an
 * Ollama `/api/generate` body's string `response` or any other record matches none and is
 * rejected, saying what it holds and what is expected.
 */
function recordShape(value: Record<string, unknown>): Shape {
  const { response, raw } = value;
  if (holdsResponseFields(response)) return { form: "trace", source: response, explicit: true };
  if (!present(response) && present(raw)) return { form: "trace", source: raw, explicit: false };
  if (holdsResponseFields(value.trace)) return { form: "seed_runner", source: value.trace, explicit: true };
  if (looksLikeProviderPayload(value)) return { form: "payload", source: value, explicit: false };
  if (holdsResponseFields(value)) return { form: "seed_trace", source: value, explicit: true };
  if (("response" in value || "raw" in value) && !present(response) && !present(raw)) {
    return { reason: "response and raw are both empty: a trace record needs one of them", misread: false };
  }
  let what: string;
  if (present(response)) {
    what = isObject(response)
      ? `response holds none of text, tool_call, tool_calls (it holds ${keysOf(response)})`
      : `response is ${kindOf(response)}, not an object holding text, tool_call or tool_calls`;
  } else if (present(value.trace)) {
    what = isObject(value.trace)
      ? `trace holds none of text, tool_call, tool_calls (it holds ${keysOf(value.trace)}), so it is not the seed runner's {label, trace}`
      : `trace is ${kindOf(value.trace)}, not the seed runner's trace object`;
  } else what = `the record holds ${keysOf(value)}`;
  // Older versions read `response` as our record's and `trace` as the seed runner's by the key alone.
  const misread = isObject(response) || (!present(response) && !present(raw) && isObject(value.trace));
  return { reason: `no record shape matches: ${what}; ${SHAPES}`, misread };
}

function kindOf(v: unknown): string {
  if (v === null) return "null";
  const kind = Array.isArray(v) ? "array" : typeof v;
  return `${/^[aeiou]/.test(kind) ? "an" : "a"} ${kind}`;
}

/**
 * Reads one parsed JSONL value as a trace record: the trace format, the seed runner's
 * `{label, trace}`, the seed's bare trace shape, or a bare provider payload.
 */
export function interpretRecord(value: unknown, defaults: RecordDefaults, lookup: ProbeLookup): Interpreted {
  if (!isObject(value)) {
    return fail(
      `the record is ${Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`}, not an object`,
    );
  }
  const shape = recordShape(value);
  if ("reason" in shape)
    return shape.misread ? { ok: false, reason: shape.reason, misread: true } : fail(shape.reason);
  const { form, explicit, source: responseSource } = shape;
  const envelope: Record<string, unknown> = form === "trace" || form === "seed_runner" ? value : {};

  let e = plainEnvelope(envelope);
  if (e === null) {
    const env = TraceEnvelopeSchema.safeParse(envelope);
    if (!env.success) return fail(describeIssues(env.error));
    e = env.data;
  }

  let response: NormalizedResponse;
  let payloadModel: string | null = null;
  if (explicit) {
    const r = normalizeExplicit(responseSource);
    if ("error" in r) return fail(`${form === "seed_runner" ? "trace" : "response"}: ${r.error}`);
    // The seed's shape is scored as given (seed parity); our `response` gets the fence recovery.
    response = form === "trace" ? recoverFencedResponse(r) : { ...r, verbatim: true };
  } else {
    const n = normalizePayload(responseSource);
    payloadModel = n.model;
    response = { text: n.text, tool_calls: n.tool_calls, fenced: n.fenced };
    if (n.unrecognized) response.unrecognized = true;
  }
  if (form === "trace" && value.raw !== undefined && explicit) {
    payloadModel = payloadModelOf(value.raw);
  }

  const resolved = resolveProbe(e.probe, defaults, lookup);
  if (typeof resolved === "string") return fail(resolved);

  const record: TraceRecord = {
    form,
    id: e.id ?? null,
    run: e.run ?? null,
    model: e.model ?? null,
    probe: resolved.probe,
    probeInline: resolved.inline,
    response,
    payloadModel,
    raw: form === "payload" ? value : value.raw,
  };
  if (e.world_state) record.world_state = e.world_state;
  if (e.side_effect) record.side_effect = e.side_effect;
  if (e.label !== undefined) {
    const { kept, ignored } = knownLabels(recordedPerField(e.label, resolved.probe));
    record.recorded = kept;
    if (ignored.length) record.warnings = ignored;
  }
  if (e.human) record.human = e.human;
  if (e.started_at !== undefined) record.started_at = e.started_at;
  if (e.latency_ms !== undefined) record.latency_ms = e.latency_ms;
  else {
    // Bedrock's and Ollama's bodies say how long the call took.
    const l = payloadLatencyMs(record.raw);
    if (l !== null) record.latency_ms = l;
  }
  if (e.params) record.params = e.params;
  return { ok: true, record };
}
