import { isObject } from "../isObject";
import { isNamedCall, modelOf, providerReader, type Rec, readStream, toCall } from "./providerReaders";

export { payloadLatencyMs } from "./providerReaders";

import type { NormalizedResponse } from "./response";
import { isFalsy } from "./score";

/**
 * Parsing is not scoring (DESIGN.md): this module only finds the text and the calls in a
 * provider payload. Calls keep their arguments exactly as they arrived (a JSON string stays a
 * string); the scorer decides what they mean. Nothing here throws on any input.
 */
export interface NormalizedPayload extends NormalizedResponse {
  /** The model the payload names, or null when it names none. */
  model: string | null;
}

function kindOf(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  const kind = Array.isArray(v) ? "array" : typeof v;
  return `${/^[aeiou]/.test(kind) ? "an" : "a"} ${kind}`;
}

/** True for objects shaped like one of the provider payloads the parser reads (to spot bare ones in a JSONL file). */
export function looksLikeProviderPayload(value: unknown): boolean {
  return providerReader(value) !== null;
}

// --- Fenced-JSON recovery --------------------------------------------------------------

/** The end of the run of backticks (char code 96) at `i`. */
function runEnd(text: string, i: number): number {
  let j = i;
  while (text.charCodeAt(j) === 96) j++;
  return j;
}

/**
 * The JSON of every fenced block that can hold an object: opening fence to the next run of at
 * least as many backticks. A forward scan with `indexOf`, not a regex, so megabytes of
 * backticks stay linear; bodies that cannot be JSON are skipped before any copy or parse.
 */
function* fencedJson(text: string): Generator<{ json: string; start: number; end: number }> {
  let at = text.indexOf("```");
  while (at >= 0) {
    const open = runEnd(text, at);
    // A shorter run of backticks inside the block does not close it.
    let close = text.indexOf("```", open);
    while (close >= 0 && runEnd(text, close) - close < open - at) {
      close = text.indexOf("```", runEnd(text, close));
    }
    if (close < 0) break;
    const json = blockJson(text, open, close);
    const end = runEnd(text, close);
    if (json !== null) yield { json, start: at, end };
    at = text.indexOf("```", end);
  }
}

/** JSON's whitespace: space, tab, line feed, carriage return. */
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** The block's JSON when it is tagged `json` (on the fence's line or not) or untagged, and is braced. */
function blockJson(text: string, start: number, end: number): string | null {
  let i = start;
  while (i < end && isSpace(text.charCodeAt(i))) i++;
  if (text.slice(i, i + 4).toLowerCase() === "json") i += 4;
  while (i < end && isSpace(text.charCodeAt(i))) i++;
  let j = end;
  while (j > i && isSpace(text.charCodeAt(j - 1))) j--;
  return text[i] === "{" && text[j - 1] === "}" ? text.slice(i, j) : null;
}

function parseJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

/** `{"name": a named string, "arguments": object or a JSON string of one}`; arguments stay as written. */
function asFencedCall(json: string): Rec | null {
  const v = parseJson(json);
  if (!isObject(v) || !isNamedCall(v)) return null;
  const args = typeof v.arguments === "string" ? parseJson(v.arguments) : v.arguments;
  return isObject(args) ? { name: v.name, arguments: v.arguments } : null;
}

/** A failed JSON.parse costs an exception (tens of microseconds): a hostile text gets this many tries. */
const MAX_MISSES = 1000;

/**
 * Only a provider payload with no structured call gets its fenced blocks read as calls. A block
 * taken as a call is no longer text: it leaves the text, so its JSON keys are not read as a
 * question (the original record keeps the full text for display).
 */
function recoverFenced(r: NormalizedPayload): NormalizedPayload {
  if (r.text === null || r.tool_calls.some((c) => !isFalsy(c))) return r;
  const calls: Rec[] = [];
  const kept: string[] = [];
  let from = 0;
  let misses = 0;
  for (const block of fencedJson(r.text)) {
    const call = asFencedCall(block.json);
    if (call) {
      calls.push(call);
      kept.push(r.text.slice(from, block.start));
      from = block.end;
    } else if (++misses >= MAX_MISSES) break;
  }
  if (calls.length === 0) return r;
  kept.push(r.text.slice(from));
  const rest = kept.join("").trim();
  return { ...r, text: rest === "" ? null : rest, tool_calls: calls, fenced: true };
}

/**
 * An explicit `response` (our trace format, not the seed's shape): with no structured call, a
 * fenced JSON block of the call's shape in its text is the call (flag `fenced`), as for a payload.
 */
export function recoverFencedResponse(r: NormalizedResponse): NormalizedResponse {
  const out = recoverFenced({ ...r, model: null });
  if (out === r || !out.fenced) return r;
  const { model: _model, ...response } = out;
  return response;
}

// --- Entry points ----------------------------------------------------------------------

/** A recognized object payload, or null when the value is none of the known shapes. */
function readObject(v: unknown): NormalizedPayload | null {
  if (Array.isArray(v)) {
    const streamed = readStream(v);
    return streamed ? recoverFenced({ ...streamed, fenced: false }) : null;
  }
  if (!isObject(v)) return null;
  const model = modelOf(v);
  const reader = providerReader(v);
  if (reader) return recoverFenced({ ...reader(v), fenced: false, model });
  // The seed's trace shape: `{text, tool_call}` or `{text, tool_calls}`.
  if (!["text", "tool_call", "tool_calls"].some((k) => Object.hasOwn(v, k))) return null;
  const r = normalizeExplicit(v); // scored as given: no fence recovery
  return "error" in r ? null : { ...r, model };
}

/** The JSON value a string payload holds when it looks like an object or an array, else undefined. */
function jsonOf(text: string): unknown {
  let i = 0;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  const c = text.charCodeAt(i);
  // Only an object (or an array of streamed chunks) can be a known shape: other text (prose, a
  // number) is the model's own and not worth a failed parse.
  if (c !== 0x7b && c !== 0x5b) return undefined;
  let j = text.length;
  while (j > i && isSpace(text.charCodeAt(j - 1))) j--;
  if (text.charCodeAt(j - 1) !== (c === 0x7b ? 0x7d : 0x5d)) return undefined;
  return parseJson(text);
}

/**
 * Normalizes a provider payload (object or string). A string that is the JSON of a known
 * shape is read as that shape; any other string is the model's plain text. A payload in no
 * known shape (an error body, an event stream; or a string holding the JSON of one) is marked
 * `unrecognized`: no call could be looked for in it.
 */
export function normalizePayload(payload: unknown): NormalizedPayload {
  const isText = typeof payload === "string";
  const value = isText ? jsonOf(payload) : payload;
  const read = readObject(value);
  if (read) return read;
  if (isText) {
    const r = recoverFenced({ text: payload, tool_calls: [], fenced: false, model: null });
    return typeof value === "object" && value !== null ? { ...r, unrecognized: true } : r;
  }
  return { text: null, tool_calls: [], fenced: false, model: null, unrecognized: true };
}

/**
 * `normalizePayload(payload).model`, without reading the text and calls: for a `raw` kept for
 * display beside an explicit `response`, only the model it names matters.
 */
export function payloadModelOf(payload: unknown): string | null {
  const t = typeof payload === "string" ? payload.trimStart() : "";
  const v = t.startsWith("{") || t.startsWith("[") ? parseJson(t) : payload;
  if (Array.isArray(v)) return readStream(v)?.model ?? null;
  if (!isObject(v)) return null;
  const model = modelOf(v);
  if (model === null || providerReader(v)) return model;
  if (!["text", "tool_call", "tool_calls"].some((k) => Object.hasOwn(v, k))) return null;
  return "error" in normalizeExplicit(v) ? null : model;
}

/**
 * An explicit `response` (or the seed's trace shape), scored as given: `tool_call` (one, kept
 * even when falsy) wins over `tool_calls`; entries are kept exactly, except that an OpenAI
 * `{type: "function", function: {...}}` entry becomes `{name, arguments}`. No fence recovery.
 */
export function normalizeExplicit(response: unknown): NormalizedResponse | { error: string } {
  if (!isObject(response)) return { error: `response must be an object, got ${kindOf(response)}` };
  const text = response.text ?? null;
  if (text !== null && typeof text !== "string") {
    return { error: `response.text must be a string or null, got ${kindOf(text)}` };
  }
  const one = response.tool_call;
  const many = response.tool_calls ?? [];
  if (one !== undefined && one !== null) return { text, tool_calls: [toCall(one)], fenced: false };
  if (!Array.isArray(many)) return { error: `response.tool_calls must be an array, got ${kindOf(many)}` };
  return { text, tool_calls: Array.from(many, toCall), fenced: false };
}
