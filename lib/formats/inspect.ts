import { isObject } from "../isObject";
import type { Generation, SpanRead } from "./generation";

/**
 * Inspect AI logs (UK AISI's inspect_ai): a `.json` EvalLog (`{version, eval: {task, model, ...},
 * samples: [...]}`) or a `.eval` zip (`header.json`, one `samples/ID_epoch_N.json` a sample). A
 * sample is one agent turn; each of its model generations is one generation: its `model` events'
 * `output.choices[0].message` where the log has events, else its assistant messages. Identity:
 * sample id + epoch + the generation's index (`ID:EPOCH` is the turn, `:INDEX` the generation).
 */

/** What a sample's header gives its generations: the model the eval ran. */
export interface InspectContext {
  model: string | null;
}

/** The model an EvalLog's `eval` names (`eval.model`), or null. */
export function inspectModel(evalSpec: unknown): string | null {
  return isObject(evalSpec) && typeof evalSpec.model === "string" ? evalSpec.model : null;
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

function messageGeneration(
  msg: unknown,
  traceId: string,
  index: number,
  model: string | null,
  attachments: Record<string, unknown>,
): SpanRead {
  if (!isObject(msg)) return { kind: "error", reason: `generation ${index}: the message is not an object` };
  if (msg.tool_calls !== undefined && msg.tool_calls !== null && !Array.isArray(msg.tool_calls))
    return { kind: "error", reason: `generation ${index}: tool_calls must be a list` };
  const g: Generation = {
    traceId,
    spanId: String(index),
    requestModel: model,
    responseModel: typeof msg.model === "string" ? msg.model : null,
    text: textOf(msg.content, attachments),
    toolCalls: ((msg.tool_calls as unknown[] | null | undefined) ?? []).map(callOf),
    offeredTools: [],
    style: "genai",
  };
  return { kind: "generation", generation: g };
}

/** The tool names a model event's request offered (`tools[].name`). */
function toolsOf(e: Record<string, unknown>): string[] {
  if (!Array.isArray(e.tools)) return [];
  return e.tools.flatMap((t) => (isObject(t) && typeof t.name === "string" ? [t.name] : []));
}

/** One sample's generations (each a generation or an error), or a reason the sample cannot be read. */
export function readInspectSample(sample: unknown, ctx: InspectContext): SpanRead[] | { error: string } {
  if (!isObject(sample)) return { error: "the sample is not an object" };
  const id = sample.id;
  if ((typeof id !== "string" && typeof id !== "number") || id === "")
    return { error: "the sample has no id (a string or number)" };
  const epoch = typeof sample.epoch === "number" ? sample.epoch : 1;
  const traceId = `${id}:${epoch}`;
  const attachments = isObject(sample.attachments) ? sample.attachments : {};
  let worldState: unknown;
  if (isObject(sample.metadata) && sample.metadata.world_state !== undefined)
    worldState = sample.metadata.world_state;
  const out: SpanRead[] = [];
  const events = Array.isArray(sample.events)
    ? sample.events.filter((e) => isObject(e) && e.event === "model")
    : [];
  if (events.length > 0) {
    events.forEach((e, i) => {
      const ev = e as Record<string, unknown>;
      const model = typeof ev.model === "string" ? ev.model : ctx.model;
      const choices = isObject(ev.output) ? ev.output.choices : undefined;
      const first = Array.isArray(choices) ? choices[0] : undefined;
      const r = messageGeneration(
        isObject(first) ? first.message : undefined,
        traceId,
        i,
        model,
        attachments,
      );
      if (r.kind === "generation") {
        r.generation.offeredTools = toolsOf(ev);
        if (typeof ev.timestamp === "string" && !Number.isNaN(Date.parse(ev.timestamp)))
          r.generation.startedAt = new Date(Date.parse(ev.timestamp)).toISOString();
        if (isObject(ev.output) && typeof ev.output.model === "string")
          r.generation.responseModel = ev.output.model;
      }
      out.push(r);
    });
  } else {
    if (!Array.isArray(sample.messages)) return { error: "the sample has neither model events nor messages" };
    let i = 0;
    for (const m of sample.messages)
      if (isObject(m) && m.role === "assistant")
        out.push(messageGeneration(m, traceId, i++, ctx.model, attachments));
  }
  if (worldState !== undefined)
    for (const r of out) if (r.kind === "generation") r.generation.worldState = worldState;
  return out;
}
