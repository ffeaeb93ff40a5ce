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
export type RecordForm = "trace" | "seed_runner" | "seed_trace" | "payload" | "otlp" | "phoenix";

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
export type Interpreted = { ok: true; record: TraceRecord } | { ok: false; reason: string };

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
  let form: RecordForm;
  let envelope: Record<string, unknown> = value;
  let responseSource: unknown;
  let explicit = true;
  if ("response" in value || "raw" in value) {
    form = "trace";
    if (
      (value.response === undefined || value.response === null) &&
      (value.raw === undefined || value.raw === null)
    ) {
      return fail("response and raw are both empty: a trace record needs one of them");
    }
    if (value.response !== undefined && value.response !== null) responseSource = value.response;
    else {
      responseSource = value.raw;
      explicit = false;
    }
  } else if ("trace" in value) {
    form = "seed_runner";
    responseSource = value.trace;
  } else if (looksLikeProviderPayload(value)) {
    form = "payload";
    envelope = {};
    responseSource = value;
    explicit = false;
  } else if ("tool_call" in value || "tool_calls" in value || "text" in value) {
    form = "seed_trace";
    envelope = {};
    responseSource = value;
  } else {
    return fail("not a trace record: it needs response or raw, a seed {label, trace}, or a provider payload");
  }

  let e = plainEnvelope(envelope);
  if (e === null) {
    const env = TraceEnvelopeSchema.safeParse(envelope);
    if (!env.success) return fail(describeIssues(env.error));
    e = env.data;
  }

  let response: NormalizedResponse;
  let payloadModel: string | null = null;
  if (explicit) {
    if (form === "trace" && !isObject(responseSource)) return fail("response: must be an object");
    if (form === "seed_runner" && !isObject(responseSource)) return fail("trace: must be an object");
    const r = normalizeExplicit(responseSource);
    if ("error" in r) return fail(`${form === "seed_runner" ? "trace" : "response"}: ${r.error}`);
    response = r;
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
