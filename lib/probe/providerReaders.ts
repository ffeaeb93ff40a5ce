import { isObject } from "../isObject";

/**
 * The provider payloads the parser reads, each told by its content: a shape's own nesting and a
 * companion field beside it, never one key name alone (DESIGN.md, "Traces from other tools").
 * Each reader finds the text and the calls in that provider's own fields; calls keep their
 * arguments as they arrived (an object, or a JSON string), and only a call with a name is kept.
 * Nothing here throws on any input.
 */
export type Rec = Record<string, unknown>;
export type Read = { text: string | null; tool_calls: unknown[] };
export type Reader = (v: Rec) => Read;

// --- Calls -----------------------------------------------------------------------------

/**
 * In a provider payload a call needs a name with a character other than white space: services
 * send empty placeholders (`"function_call": {"name": "", "arguments": ""}` beside `"tool_calls":
 * null` on a plain text answer) that are no call. The seed's shape, whose calls carry no name, is
 * not read through here.
 */
export function isNamedCall(call: unknown): boolean {
  return isObject(call) && typeof call.name === "string" && call.name.trim() !== "";
}

/**
 * `{name, arguments}` from a provider's call object. Only keys that are there are copied:
 * a stored copy goes through JSON, which drops `undefined`, and `{}` must stay `{}` (no call).
 */
function pickCall(src: Rec, argsKey = "arguments"): Rec {
  const call: Rec = {};
  if (src.name !== undefined) call.name = src.name;
  if (src[argsKey] !== undefined) call.arguments = src[argsKey];
  return call;
}

/**
 * OpenAI's `{type: "function", function: {name, arguments}}` (also Cohere v2's, and Ollama's
 * with object arguments) becomes `{name, arguments}`; others stay.
 */
export function toCall(entry: unknown): unknown {
  if (!isObject(entry) || !isObject(entry.function)) return entry;
  if (Object.hasOwn(entry, "name") || Object.hasOwn(entry, "arguments")) return entry;
  return pickCall(entry.function);
}

/** Streaming deltas concatenated rather than accumulated repeat a call's `index`: glue its pieces. */
function foldDeltaCalls(entries: unknown[]): unknown[] {
  const out: unknown[] = [];
  const byIndex = new Map<number, Rec>();
  for (const entry of Array.from(entries)) {
    const call = toCall(entry);
    const index = isObject(entry) && call !== entry && typeof entry.index === "number" ? entry.index : null;
    const seen = index === null ? undefined : byIndex.get(index);
    if (seen && isObject(call)) {
      if (seen.name === undefined && call.name !== undefined) seen.name = call.name;
      if (typeof call.arguments === "string") {
        seen.arguments = (typeof seen.arguments === "string" ? seen.arguments : "") + call.arguments;
      }
      continue;
    }
    if (index !== null && isObject(call)) byIndex.set(index, call);
    out.push(call);
  }
  return out;
}

// --- Text ------------------------------------------------------------------------------

/**
 * A string, or the text of content parts of the given types. Parts are joined with nothing
 * between them: providers split one reply into parts mid-sentence (citations, streaming), and
 * the OpenAI SDK's `output_text` joins them the same way.
 */
export function contentText(content: unknown, partType: string): string | null {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  const pieces: string[] = [];
  for (const p of content) {
    if (isObject(p) && p.type === partType && typeof p.text === "string") pieces.push(p.text);
  }
  return pieces.length > 0 ? pieces.join("") : null;
}

const joined = (pieces: string[]): string | null => (pieces.length > 0 ? pieces.join("") : null);

// --- OpenAI and Anthropic ---------------------------------------------------------------

/** Chat completions: only `choices[0]`, its `message` (or a streaming `delta`). */
function readChat(v: Rec): Read {
  const choice = (v.choices as unknown[])[0];
  if (!isObject(choice)) return { text: null, tool_calls: [] };
  const isDelta = !isObject(choice.message) && isObject(choice.delta);
  const msg = isObject(choice.message) ? choice.message : isDelta ? (choice.delta as Rec) : null;
  // Legacy text completions carry `choices[0].text` and no message.
  if (msg === null) return { text: typeof choice.text === "string" ? choice.text : null, tool_calls: [] };
  const raw = Array.isArray(msg.tool_calls) ? msg.tool_calls : [];
  // Deltas are glued before the name is checked: a call's name comes in its first fragment only.
  let calls = (isDelta ? foldDeltaCalls(raw) : Array.from(raw, toCall)).filter(isNamedCall);
  // The legacy `function_call` is read only when there are no tool calls, as the API sends one or the other.
  if (calls.length === 0 && isObject(msg.function_call)) {
    const call = pickCall(msg.function_call);
    if (isNamedCall(call)) calls = [call];
  }
  return { text: contentText(msg.content, "text"), tool_calls: calls };
}

/** Responses API: `output_text` parts of message items (reasoning ignored), function_call items in order. */
function readResponses(v: Rec): Read {
  const pieces: string[] = [];
  const calls: unknown[] = [];
  for (const item of v.output as unknown[]) {
    if (!isObject(item)) continue;
    if (item.type === "function_call" && isNamedCall(item)) calls.push(pickCall(item));
    if (item.type !== "message") continue;
    const t = contentText(item.content, "output_text");
    if (t !== null) pieces.push(t);
  }
  // The SDK's `output_text` convenience field is only a fallback: the items are the source.
  const text = pieces.length > 0 ? pieces.join("") : typeof v.output_text === "string" ? v.output_text : null;
  return { text, tool_calls: calls };
}

/** Anthropic Messages: text blocks joined, `tool_use` blocks as `{name, arguments: input}`. */
function readAnthropic(v: Rec): Read {
  const pieces: string[] = [];
  const calls: unknown[] = [];
  for (const block of v.content as unknown[]) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") pieces.push(block.text);
    if (block.type === "tool_use" && isNamedCall(block)) calls.push(pickCall(block, "input"));
  }
  return { text: joined(pieces), tool_calls: calls };
}

// --- Gemini, Bedrock Converse, Cohere v2, Ollama ----------------------------------------

/** Gemini / Vertex `generateContent`: a candidate with `content.parts`, or one that only says why it stopped. */
function isGeminiCandidate(c: unknown): boolean {
  if (!isObject(c)) return false;
  if (isObject(c.content)) return Array.isArray(c.content.parts) || typeof c.content.role === "string";
  return typeof c.finishReason === "string";
}

/**
 * Gemini: the parts of `candidates[0].content` (other candidates are alternatives, as chat's other
 * choices). Text parts joined, thought parts (`thought: true`) left out as reasoning is;
 * `functionCall {name, args}` parts as `{name, arguments: args}`, in order (`function_call`, as
 * the Python SDK's `model_dump()` writes it, too).
 */
function readGemini(v: Rec): Read {
  const first = (v.candidates as unknown[])[0];
  const parts = isObject(first) && isObject(first.content) ? first.content.parts : undefined;
  return readGeminiParts(Array.isArray(parts) ? parts : []);
}

export function readGeminiParts(parts: unknown[]): Read {
  const pieces: string[] = [];
  const calls: unknown[] = [];
  for (const p of parts) {
    if (!isObject(p)) continue;
    if (typeof p.text === "string" && p.thought !== true) pieces.push(p.text);
    const fc = isObject(p.functionCall) ? p.functionCall : p.function_call;
    if (isObject(fc)) {
      const call = pickCall(fc, "args");
      if (isNamedCall(call)) calls.push(call);
    }
  }
  return { text: joined(pieces), tool_calls: calls };
}

/**
 * Bedrock Converse: `output.message.content` blocks. `text` blocks joined, `toolUse {name, input}`
 * as `{name, arguments: input}`; `reasoningContent` and other blocks are not the answer.
 */
function readConverse(v: Rec): Read {
  const pieces: string[] = [];
  const calls: unknown[] = [];
  for (const block of (v.output as Rec & { message: Rec }).message.content as unknown[]) {
    if (!isObject(block)) continue;
    if (typeof block.text === "string") pieces.push(block.text);
    if (isObject(block.toolUse)) {
      const call = pickCall(block.toolUse, "input");
      if (isNamedCall(call)) calls.push(call);
    }
  }
  return { text: joined(pieces), tool_calls: calls };
}

/**
 * An assistant message beside the reply's own envelope: Cohere v2 chat (`message.content[]` text
 * parts; `tool_calls[].function` with arguments as a JSON string; its `tool_plan` is the model's
 * plan, not its answer) and Ollama's `/api/chat` (`message.content` a string; `tool_calls[].function`
 * with arguments as an object).
 */
function readAssistantMessage(v: Rec): Read {
  const msg = v.message as Rec;
  const raw = Array.isArray(msg.tool_calls) ? msg.tool_calls : [];
  return { text: contentText(msg.content, "text"), tool_calls: Array.from(raw, toCall).filter(isNamedCall) };
}

/** Cohere v2 (`finish_reason`) or Ollama (`done`): an assistant `message` and the envelope's own field. */
function isAssistantEnvelope(v: Rec): boolean {
  if (!isObject(v.message) || v.message.role !== "assistant") return false;
  return typeof v.finish_reason === "string" || typeof v.done === "boolean";
}

// --- Detection -------------------------------------------------------------------------

/** The reader for a payload in one of the shapes the parser knows; else null. */
export function providerReader(v: unknown): Reader | null {
  if (!isObject(v)) return null;
  if (Array.isArray(v.choices)) return readChat;
  const out = v.output;
  if (Array.isArray(out)) {
    const typedItems = out.some((o) => isObject(o) && typeof o.type === "string");
    return v.object === "response" || typedItems ? readResponses : null;
  }
  if (Array.isArray(v.content) && (v.type === "message" || v.role === "assistant")) return readAnthropic;
  if (Array.isArray(v.candidates) && v.candidates.length > 0 && isGeminiCandidate(v.candidates[0])) {
    return readGemini;
  }
  if (isObject(out) && isObject(out.message) && Array.isArray(out.message.content)) {
    if (out.message.role === "assistant" || typeof v.stopReason === "string") return readConverse;
  }
  if (isAssistantEnvelope(v)) return readAssistantMessage;
  return null;
}

/** The model a payload names: `model`, else Gemini's `modelVersion`; null when it names none. */
export function modelOf(v: Rec): string | null {
  if (typeof v.model === "string" && v.model !== "") return v.model;
  if (typeof v.modelVersion === "string" && v.modelVersion !== "" && Array.isArray(v.candidates)) {
    return v.modelVersion;
  }
  return null;
}

// --- Streams ---------------------------------------------------------------------------

/**
 * A streamed answer recorded as an array of its chunks, when every chunk is one and the same
 * chunk shape: Gemini's `streamGenerateContent` (each chunk a response holding the next parts),
 * Ollama's `/api/chat` stream (each a message with the next piece of `content` and any calls), or
 * chat completion chunks (each a `delta`; a call's fragments glued by their `index`). The chunks'
 * pieces are joined in order and read as one answer. Other arrays (Anthropic's or Bedrock's event
 * streams, a list of answers) are no known shape. Returns null for those.
 */
export function readStream(chunks: unknown[]): (Read & { model: string | null }) | null {
  // A sparse array's holes are no chunks: `every` would skip them, so copy first.
  const objs = Array.from(chunks) as Rec[];
  if (objs.length === 0 || !objs.every(isObject)) return null;
  const readers = new Set(objs.map((c) => providerReader(c)));
  if (readers.size !== 1) return null;
  const [reader] = readers;
  let model: string | null = null;
  for (const c of objs) model = modelOf(c) ?? model;
  if (reader === readGemini) {
    const parts: unknown[] = [];
    for (const c of objs) {
      const first = (c.candidates as unknown[])[0] as Rec;
      if (isObject(first.content) && Array.isArray(first.content.parts)) parts.push(...first.content.parts);
    }
    return { ...readGeminiParts(parts), model };
  }
  if (reader === readAssistantMessage && objs.every((c) => typeof c.done === "boolean")) {
    const pieces: string[] = [];
    const calls: unknown[] = [];
    for (const c of objs) {
      const r = readAssistantMessage(c);
      if (r.text !== null) pieces.push(r.text);
      calls.push(...r.tool_calls);
    }
    return { text: joined(pieces), tool_calls: calls, model };
  }
  if (reader === readChat && objs.every(isChatChunk)) {
    const pieces: string[] = [];
    const deltas: unknown[] = [];
    for (const c of objs) {
      const delta = ((c.choices as unknown[])[0] as Rec | undefined)?.delta;
      if (!isObject(delta)) continue;
      if (typeof delta.content === "string") pieces.push(delta.content);
      if (Array.isArray(delta.tool_calls)) deltas.push(...delta.tool_calls);
    }
    const calls = foldDeltaCalls(deltas).filter(isNamedCall);
    return { text: joined(pieces), tool_calls: calls, model };
  }
  return null;
}

/** A chat completion chunk: a `delta` in its first choice, or no choice at all (the usage chunk). */
function isChatChunk(c: Rec): boolean {
  const choices = c.choices as unknown[];
  if (choices.length === 0) return c.object === "chat.completion.chunk";
  const first = choices[0];
  return isObject(first) && isObject(first.delta) && !isObject(first.message);
}

// --- Latency ---------------------------------------------------------------------------

const duration = (x: unknown): number | null =>
  typeof x === "number" && Number.isFinite(x) && x >= 0 ? x : null;

/**
 * How long the call took, in milliseconds, when the payload says so itself: Bedrock Converse's
 * `metrics.latencyMs`, Ollama's `total_duration` (nanoseconds; in a stream, on its last chunk).
 * Null for every other payload, and for a value that is not a non-negative number.
 */
export function payloadLatencyMs(payload: unknown): number | null {
  const v = Array.isArray(payload) ? payload[payload.length - 1] : payload;
  if (!isObject(v)) return null;
  const reader = providerReader(v);
  if (reader === readConverse && isObject(v.metrics)) return duration(v.metrics.latencyMs);
  if (reader === readAssistantMessage && typeof v.done === "boolean") {
    const ns = duration(v.total_duration);
    return ns === null ? null : ns / 1e6;
  }
  return null;
}
