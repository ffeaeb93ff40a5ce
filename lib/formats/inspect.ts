import { isObject } from "../isObject";
import type { Generation, SpanRead } from "./generation";

/**
 * Inspect AI logs (UK AISI's inspect_ai): a `.json` EvalLog (`{version, eval: {task, model, ...},
 * samples: [...]}`) or a `.eval` zip (`header.json`, one `samples/ID_epoch_N.json` a sample). A
 * sample is one agent turn; each of its model generations is one generation: its `model` events'
 * `output.choices[0].message` where the log has events (an agent often drops its last call from
 * `messages`), else its assistant messages. Identity: sample id + epoch + the generation's index
 * (`ID:EPOCH` is the turn, `:INDEX` the generation).
 *
 * A sample is split into one *generation record* a generation (inspectGenerations): the sample's
 * id and epoch, its world state, its generation's own model event (or its messages up to its
 * assistant message) and the attachments these refer to, under `inspect_generation` (its index
 * and the eval's model). That record is what is scored, kept as the trace's original, re-read by
 * a re-score and drafted into a probe: each generation keeps its own part of the sample, not the
 * whole sample once per generation.
 */

/** What a sample's log gives its generations: the model the eval ran (`eval.model`). */
export interface InspectContext {
  model: string | null;
}

/** The model an EvalLog's `eval` names (`eval.model`), or null. */
export function inspectModel(evalSpec: unknown): string | null {
  return isObject(evalSpec) && typeof evalSpec.model === "string" ? evalSpec.model : null;
}

/** Sample metadata keys a generation record keeps: the world state, and a probe the sample names. */
const METADATA_KEPT = ["world_state", "assumeprobe_probe"] as const;

/** One generation record of a sample, with where the generation stands in it (`events[3]`). */
export interface InspectGenerationRecord {
  value: InspectGenerationValue;
  path: string;
}

/** A generation record, as kept (JSON). */
export interface InspectGenerationValue {
  inspect_generation: { index: number; model: string | null };
  sample: Record<string, unknown>;
}

const ATTACHMENT = /attachment:\/\/([A-Za-z0-9_.-]+)/g;

/** The attachments the values refer to (`attachment://ID` in any string), from the sample's. */
function attachmentsOf(values: unknown[], all: Record<string, unknown>): Record<string, unknown> | null {
  const used: Record<string, unknown> = {};
  let any = false;
  for (const v of values) {
    if (v === undefined) continue;
    for (const m of JSON.stringify(v).matchAll(ATTACHMENT)) {
      const id = m[1];
      if (Object.hasOwn(all, id) && !Object.hasOwn(used, id)) {
        used[id] = all[id];
        any = true;
      }
    }
  }
  return any ? used : null;
}

/**
 * A sample's generation records: one a model event, else one an assistant message; an error when
 * the sample cannot be read at all. A sample with no generation gives none.
 */
export function inspectGenerations(
  sample: unknown,
  ctx: InspectContext,
): { records: InspectGenerationRecord[] } | { error: string } {
  if (!isObject(sample)) return { error: "the sample is not an object" };
  const id = sample.id;
  if ((typeof id !== "string" && typeof id !== "number") || id === "")
    return { error: "the sample has no id (a string or number)" };
  const head: Record<string, unknown> = { id, epoch: typeof sample.epoch === "number" ? sample.epoch : 1 };
  if (isObject(sample.metadata)) {
    const kept: Record<string, unknown> = {};
    for (const k of METADATA_KEPT) if (sample.metadata[k] !== undefined) kept[k] = sample.metadata[k];
    if (Object.keys(kept).length > 0) head.metadata = kept;
  }
  const attachments = isObject(sample.attachments) ? sample.attachments : {};
  const record = (index: number, path: string, part: Record<string, unknown>): InspectGenerationRecord => {
    const s: Record<string, unknown> = { ...head, ...part };
    const used = attachmentsOf([part, head.metadata], attachments);
    if (used) s.attachments = used;
    return { value: { inspect_generation: { index, model: ctx.model }, sample: s }, path };
  };
  const records: InspectGenerationRecord[] = [];
  if (Array.isArray(sample.events)) {
    const scorer = scorerEvents();
    sample.events.forEach((e, i) => {
      if (isObject(e) && !scorer(e) && e.event === "model")
        records.push(record(records.length, `events[${i}]`, { events: [e] }));
    });
    if (records.length > 0) return { records };
  }
  if (!Array.isArray(sample.messages))
    return Array.isArray(sample.events)
      ? { records }
      : { error: "the sample has neither events nor messages" };
  const messages = sample.messages;
  messages.forEach((m, i) => {
    // The conversation up to the assistant message: what the model was answering, and its answer.
    if (isObject(m) && m.role === "assistant")
      records.push(record(records.length, `messages[${i}]`, { messages: messages.slice(0, i + 1) }));
  });
  return { records };
}

const SCORER_SPANS = new Set(["scorer", "scorers"]);

/**
 * Tells, event by event in order, whether an event belongs to the sample's scoring: inside a
 * `span_begin` of type `scorer` (its `span_id`, up its spans' `parent_id`s), or between an older
 * log's `step` begin and end of type `scorer`. A model-graded scorer's model events are the
 * grader's calls, not the agent's generations.
 */
function scorerEvents(): (e: Record<string, unknown>) => boolean {
  const spans = new Map<string, { scorer: boolean; parent: unknown }>();
  let steps = 0;
  const inScorer = (id: unknown): boolean => {
    for (let n = 0; typeof id === "string" && n < 64; n++) {
      const s = spans.get(id);
      if (!s) return false;
      if (s.scorer) return true;
      id = s.parent;
    }
    return false;
  };
  return (e) => {
    if (e.event === "span_begin" && typeof e.id === "string")
      spans.set(e.id, { scorer: SCORER_SPANS.has(String(e.type)), parent: e.parent_id });
    if (e.event === "step" && SCORER_SPANS.has(String(e.type))) steps += e.action === "end" ? -1 : 1;
    return steps > 0 || inScorer(e.span_id);
  };
}

/** Whether a value is a generation record (told by its own fields). */
export function isInspectGeneration(v: unknown): v is InspectGenerationValue {
  return (
    isObject(v) &&
    isObject(v.inspect_generation) &&
    typeof v.inspect_generation.index === "number" &&
    isObject(v.sample)
  );
}

/** A message's content as text: a string, or the `text` of its list of parts; `attachment://` resolved. */
function textOf(content: unknown, attachments: Record<string, unknown>): string | null {
  const resolve = (s: string) => {
    if (!s.startsWith("attachment://")) return s;
    const a = attachments[s.slice(13)];
    return typeof a === "string" ? a : s;
  };
  if (typeof content === "string") return resolve(content);
  if (!Array.isArray(content)) return null;
  const texts: string[] = [];
  for (const p of content)
    if (isObject(p) && p.type === "text" && typeof p.text === "string") texts.push(resolve(p.text));
  return texts.length > 0 ? texts.join("\n") : null;
}

/**
 * A tool call as `{name, arguments}`: Inspect's `function` and `arguments` (an object). A call whose
 * arguments did not parse (`parse_error`) keeps the error as its arguments, a string that is no
 * JSON object, so the call is scored ERROR.
 */
function callOf(c: unknown): { name: unknown; arguments: unknown } {
  if (!isObject(c)) return { name: undefined, arguments: undefined };
  if (typeof c.parse_error === "string" && c.parse_error !== "")
    return { name: c.function, arguments: `(arguments did not parse: ${c.parse_error})` };
  return { name: c.function, arguments: c.arguments };
}

/** The tool names a model event's request offered (`tools[].name`). */
function toolsOf(e: Record<string, unknown>): string[] {
  if (!Array.isArray(e.tools)) return [];
  return e.tools.flatMap((t) => (isObject(t) && typeof t.name === "string" ? [t.name] : []));
}

/**
 * The model the response named, under the provider prefix Inspect gives the model it asked for
 * (`openai/gpt-4o-mini` asked, `gpt-4o-mini-2024-07-18` answered: `openai/gpt-4o-mini-2024-07-18`),
 * so `model_mismatch` compares like with like.
 */
function underProvider(response: string | null, request: string | null): string | null {
  const slash = request?.indexOf("/") ?? -1;
  if (response === null || request === null || slash <= 0) return response;
  const provider = request.slice(0, slash + 1);
  return response.startsWith(provider) ? response : provider + response;
}

/** The last model event of a record's sample, or null. */
export function modelEventOf(sample: Record<string, unknown>): Record<string, unknown> | null {
  if (!Array.isArray(sample.events)) return null;
  for (let i = sample.events.length - 1; i >= 0; i--) {
    const e = sample.events[i];
    if (isObject(e) && e.event === "model") return e;
  }
  return null;
}

/**
 * One generation record as a generation: the last model event its sample holds, else its last
 * assistant message; its index in the sample is `inspect_generation.index`.
 */
export function readInspectGeneration(rec: unknown): SpanRead {
  if (!isInspectGeneration(rec))
    return { kind: "error", reason: "not an Inspect generation record (inspect_generation with its sample)" };
  const { index, model } = rec.inspect_generation;
  const sample = rec.sample;
  const traceId = `${String(sample.id)}:${typeof sample.epoch === "number" ? sample.epoch : 1}`;
  const attachments = isObject(sample.attachments) ? sample.attachments : {};
  const event = modelEventOf(sample);
  let msg: unknown;
  if (event) {
    const choices = isObject(event.output) ? event.output.choices : undefined;
    const first = Array.isArray(choices) ? choices[0] : undefined;
    msg = isObject(first) ? first.message : undefined;
  } else if (Array.isArray(sample.messages)) {
    msg = sample.messages.findLast((m) => isObject(m) && m.role === "assistant");
  }
  const where = event ? "the model event's output.choices[0].message" : "the assistant message";
  if (!isObject(msg)) return { kind: "error", reason: `generation ${index}: ${where} is not an object` };
  if (msg.tool_calls !== undefined && msg.tool_calls !== null && !Array.isArray(msg.tool_calls))
    return { kind: "error", reason: `generation ${index}: tool_calls must be a list` };
  const g: Generation = {
    traceId,
    spanId: String(index),
    requestModel: event && typeof event.model === "string" ? event.model : model,
    responseModel: typeof msg.model === "string" ? msg.model : null,
    text: textOf(msg.content, attachments),
    toolCalls: ((msg.tool_calls as unknown[] | null | undefined) ?? []).map(callOf),
    offeredTools: event ? toolsOf(event) : [],
    style: "genai",
    probeFrom: "the sample's metadata assumeprobe_probe",
  };
  if (event) {
    if (typeof event.timestamp === "string" && !Number.isNaN(Date.parse(event.timestamp)))
      g.startedAt = new Date(Date.parse(event.timestamp)).toISOString();
    const out = isObject(event.output) ? event.output : {};
    if (typeof out.model === "string") g.responseModel = out.model;
    if (typeof out.time === "number" && Number.isFinite(out.time) && out.time >= 0)
      g.latencyMs = out.time * 1000;
  }
  g.responseModel = underProvider(g.responseModel, g.requestModel);
  if (isObject(sample.metadata)) {
    if (sample.metadata.world_state !== undefined) {
      g.worldState = sample.metadata.world_state;
      g.worldStateFrom = "the sample's metadata world_state";
    }
    if (typeof sample.metadata.assumeprobe_probe === "string") g.probe = sample.metadata.assumeprobe_probe;
  }
  return { kind: "generation", generation: g };
}

/** One sample's generations (each a generation or an error), or a reason the sample cannot be read. */
export function readInspectSample(sample: unknown, ctx: InspectContext): SpanRead[] | { error: string } {
  const split = inspectGenerations(sample, ctx);
  if ("error" in split) return split;
  return split.records.map((r) => readInspectGeneration(JSON.parse(JSON.stringify(r.value))));
}
