import { isObject } from "../isObject";
import type { Generation, SpanRead } from "./generation";
import type { Frame, ScannerOptions } from "./jsonScanner";

/**
 * promptfoo results (`promptfoo eval -o FILE.json`, results format version 2 and 3):
 * `{evalId, results: {version, timestamp, prompts, results: [EvaluateResult...], stats}, config,
 * ...}`. One result is one generation: `provider.id` names the model, `response.output` is the
 * text, an array of OpenAI tool calls, a message object (content beside `tool_calls`), or any of
 * them as a JSON string (an HTTP provider's `transformResponse`); `latencyMs`; `vars` (the world
 * state in `vars.world_state`). Each result is read on its own, from its own bytes, after the
 * secrets in them are redacted (redactSecrets): older promptfoo releases write provider options,
 * API keys included, into their results.
 */

/** Picks `results.results[i]`: each result of the eval. */
export function selectPromptfooResult(stack: readonly Frame[]): boolean {
  return (
    stack.length === 3 &&
    stack[0].type === "o" &&
    stack[0].key === "results" &&
    stack[1].type === "o" &&
    stack[1].key === "results" &&
    stack[2].type === "a"
  );
}

/** Where the results document holds its results (JsonScanner's expect). */
export const PROMPTFOO_HOLDS: ScannerOptions["expect"] = {
  holds: (s) => s.length === 3 && s[0].key === "results" && s[1].key === "results" && s[2].type === "a",
  what: "results.results",
};

/** The key paths (detect.ts's Head) that make a file promptfoo results: results holding results with provider and response. */
export const PROMPTFOO_PATHS = ["results.results[].provider", "results.results[].response"];

/** What a redacted value reads as. */
export const REDACTED = "[REDACTED]";

/** Keys whose values are credentials (compared lower-case, without `-` and `_`). */
const SECRET_KEYS = new Set([
  "apikey",
  "authorization",
  "proxyauthorization",
  "password",
  "secret",
  "clientsecret",
  "secretaccesskey",
  "sessiontoken",
  "accesstoken",
  "refreshtoken",
  "bearertoken",
  "token",
]);

function isSecretKey(key: string): boolean {
  const k = key.toLowerCase().replace(/[-_]/g, "");
  return SECRET_KEYS.has(k) || k.endsWith("apikey");
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The index just past the string that starts at `i` (its closing quote), or the text's end. */
function stringEnd(t: string, i: number): number {
  for (let j = i + 1; j < t.length; j++) {
    const c = t.charCodeAt(j);
    if (c === 0x5c) j++;
    else if (c === 0x22) return j + 1;
  }
  return t.length;
}

/** The index just past the JSON value that starts at `i`, or the text's end (a cut-off value). */
function valueEnd(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c === 0x22) return stringEnd(t, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (let j = i; j < t.length; j++) {
      const d = t.charCodeAt(j);
      if (d === 0x22) j = stringEnd(t, j) - 1;
      else if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return t.length;
  }
  let j = i;
  while (j < t.length) {
    const d = t.charCodeAt(j);
    if (d === 0x2c || d === 0x7d || d === 0x5d || isSpace(d)) break;
    j++;
  }
  return j;
}

function keyText(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}

/**
 * The text with the value of every credential key (`apiKey`, `Authorization`, `*_api_key`, ...)
 * replaced by `"[REDACTED]"`, every other byte as it was; null when there is nothing to redact
 * (the text stays as it is, byte for byte). Works on cut-off JSON too (a result past the size
 * limit keeps its first bytes as its rejected text): a secret cut off is redacted to the end.
 */
export function redactSecrets(t: string): string | null {
  let out = "";
  let last = 0;
  let i = 0;
  while (i < t.length) {
    if (t.charCodeAt(i) !== 0x22) {
      i++;
      continue;
    }
    const end = stringEnd(t, i);
    let j = end;
    while (j < t.length && isSpace(t.charCodeAt(j))) j++;
    if (j < t.length && t.charCodeAt(j) === 0x3a && isSecretKey(keyText(t.slice(i, end)))) {
      j++;
      while (j < t.length && isSpace(t.charCodeAt(j))) j++;
      const vEnd = valueEnd(t, j);
      const v = t.slice(j, vEnd);
      if (v !== "" && v !== "null" && v !== '""' && v !== `"${REDACTED}"`) {
        out += `${t.slice(last, j)}"${REDACTED}"`;
        last = vEnd;
      }
      i = Math.max(vEnd, j + 1);
      continue;
    }
    // A string holding JSON (an HTTP body in `response.raw`, a variable given as JSON): its
    // credentials too, the string written again with them redacted.
    const inner = end - i > 2 && t.charCodeAt(i + 1) !== 0x22 ? nestedRedaction(t.slice(i, end)) : null;
    if (inner !== null) {
      out += t.slice(last, i) + inner;
      last = end;
    }
    i = end;
  }
  return last === 0 ? null : out + t.slice(last);
}

/** A JSON string literal whose text is JSON holding a credential, redacted and quoted again; null otherwise. */
function nestedRedaction(quoted: string): string | null {
  if (!quoted.includes('\\"') || !SECRET_HINT.test(quoted)) return null;
  let text: unknown;
  try {
    text = JSON.parse(quoted);
  } catch {
    return null;
  }
  if (typeof text !== "string") return null;
  const redacted = redactSecrets(text);
  return redacted === null ? null : JSON.stringify(redacted);
}

/** Any credential key would match this (a quick test before any decoding). */
const SECRET_HINT = /api.?key|authori[sz]ation|password|secret|token/i;

/** A result's bytes with their secrets redacted (the same buffer when there are none). */
export function redactResultBytes(bytes: Buffer): Buffer {
  // Most results hold no credential key at all: no decoding for them.
  if (!SECRET_HINT.test(bytes.toString("latin1"))) return bytes;
  const redacted = redactSecrets(bytes.toString("utf8"));
  return redacted === null ? bytes : Buffer.from(redacted, "utf8");
}

type Call = { name: unknown; arguments: unknown };

/** An OpenAI tool call (`{type: "function", function: {name, arguments}}`) or a bare `{name, arguments}`. */
function callOf(v: unknown): Call | null {
  if (!isObject(v)) return null;
  const f = isObject(v.function) ? v.function : v;
  if (!("name" in f)) return null;
  return { name: f.name, arguments: f.arguments ?? f.input ?? null };
}

function callsOf(list: unknown[]): Call[] | null {
  const calls: Call[] = [];
  for (const c of list) {
    const call = callOf(c);
    if (!call) return null;
    calls.push(call);
  }
  return calls;
}

/** The text of a message's `content`: a string, or the text of its parts. */
function contentText(v: unknown): string | null {
  if (typeof v === "string") return v;
  if (!Array.isArray(v)) return null;
  const texts = v.flatMap((p) => (isObject(p) && typeof p.text === "string" ? [p.text] : []));
  return texts.length > 0 ? texts.join("") : null;
}

/** An OpenAI message: `content` beside `tool_calls` (or the legacy `function_call`). */
function isMessage(v: Record<string, unknown>): boolean {
  return Array.isArray(v.tool_calls) || isObject(v.function_call) || ("role" in v && "content" in v);
}

type Output = Pick<Generation, "text" | "toolCalls" | "payload" | "style">;

/** The output as a generation's text and calls; `payload` for another provider's shape, read by the payload parser. */
function readOutput(output: unknown, fromString = false): Output | { error: string } {
  if (typeof output === "string" && !fromString) {
    const t = output.trim();
    if (t.startsWith("{") || t.startsWith("[")) {
      try {
        const parsed: unknown = JSON.parse(t);
        const read = readOutput(parsed, true);
        // A JSON text that is no message or call list is the model's text.
        if (!("error" in read) && read.style !== "payload") return read;
      } catch {
        // Not JSON: the model's text.
      }
    }
    return { text: output, toolCalls: [], style: "promptfoo" };
  }
  if (Array.isArray(output)) {
    const calls = callsOf(output);
    if (calls) return { text: null, toolCalls: calls, style: "promptfoo" };
    return { text: null, toolCalls: [], payload: output, style: "payload" };
  }
  if (isObject(output)) {
    if (!isMessage(output)) return { text: null, toolCalls: [], payload: output, style: "payload" };
    const calls = Array.isArray(output.tool_calls) ? callsOf(output.tool_calls) : [];
    if (calls === null)
      return { error: "response.output.tool_calls: an entry is no tool call (needs a name)" };
    const legacy = isObject(output.function_call) ? callOf(output.function_call) : null;
    if (legacy) calls.push(legacy);
    return { text: contentText(output.content), toolCalls: calls, style: "promptfoo" };
  }
  if (output === null || output === undefined) return { text: null, toolCalls: [], style: "none" };
  return { text: String(output), toolCalls: [], style: "promptfoo" };
}

/** Tool names a prompt's config offered (`prompt.config.tools`, OpenAI's shape). */
function offeredTools(result: Record<string, unknown>): string[] {
  const prompt = isObject(result.prompt) ? result.prompt : {};
  const config = isObject(prompt.config) ? prompt.config : {};
  if (!Array.isArray(config.tools)) return [];
  return config.tools.flatMap((t) => {
    const c = callOf(t);
    return c && typeof c.name === "string" ? [c.name] : [];
  });
}

function worldStateOf(vars: unknown): unknown {
  if (!isObject(vars) || vars.world_state === undefined) return undefined;
  const ws = vars.world_state;
  if (typeof ws !== "string") return ws;
  try {
    return JSON.parse(ws);
  } catch {
    return ws; // the world state check rejects it, naming vars.world_state
  }
}

/**
 * One promptfoo result (parsed from its redacted bytes) as a generation, or an error. A result
 * whose provider failed carries no output: it is rejected without its error text (which can
 * quote a key).
 */
export function readPromptfooResult(result: unknown): SpanRead {
  if (!isObject(result)) return { kind: "error", reason: "the result is not an object" };
  const provider = result.provider;
  const model =
    typeof provider === "string"
      ? provider
      : isObject(provider) && typeof provider.id === "string"
        ? provider.id
        : null;
  if (model === null || model === "") return { kind: "error", reason: "provider: needs an id (the model)" };
  if (!isObject(result.response)) {
    const why = result.error !== undefined && result.error !== null ? " (promptfoo recorded an error)" : "";
    return { kind: "error", reason: `response: needs an object with its output${why}` };
  }
  const response = result.response;
  if (response.output === undefined && response.error !== undefined)
    return { kind: "error", reason: "response: the provider returned an error, no output" };
  const out = readOutput(response.output);
  if ("error" in out) return { kind: "error", reason: out.error };
  const id = typeof result.id === "string" && result.id !== "" ? result.id : null;
  const generation: Generation = {
    traceId: id ?? "",
    spanId: "",
    extId: id,
    requestModel: model,
    responseModel: null,
    text: out.text,
    toolCalls: out.toolCalls,
    offeredTools: offeredTools(result),
    style: out.style,
    probeFrom: null,
  };
  if (out.payload !== undefined) generation.payload = out.payload;
  const latency = typeof result.latencyMs === "number" ? result.latencyMs : response.latencyMs;
  if (typeof latency === "number" && Number.isFinite(latency) && latency >= 0) generation.latencyMs = latency;
  const ws = worldStateOf(result.vars);
  if (ws !== undefined) {
    generation.worldState = ws;
    generation.worldStateFrom = "vars.world_state";
  }
  return { kind: "generation", generation };
}
