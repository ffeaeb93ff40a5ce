import { isObject } from "../isObject";
import { contentText, isNamedCall, providerReader, readGeminiParts, toCall } from "../probe/providerReaders";
import { jsonValue } from "./attributes";
import type { Generation } from "./generation";
import { readGenAiMessages } from "./styles";

/**
 * A Langfuse generation's `output`, in the shape the framework that recorded it wrote (Langfuse
 * keeps it as it came): a provider's body (OpenAI chat or Responses, Anthropic, Gemini, read by the
 * payload parser), a message (OpenAI's `tool_calls`, LangChain's `tool_calls` with `args` or its
 * `additional_kwargs.tool_calls`), Gemini `content.parts`, GenAI output messages (`parts` of
 * `text` / `tool_call`), the Vercel AI SDK's tool calls (`toolName`, `input`), a bare list of
 * tool calls, or the model's text. Any of them may come as a JSON string. What is none of them
 * goes to the payload parser as it is, which marks it unrecognized: no call could be looked for.
 */

export type OutputRead = Pick<Generation, "text" | "toolCalls" | "style" | "payload">;

type Call = { name: unknown; arguments: unknown };
type Rec = Record<string, unknown>;

const asPayload = (output: unknown): OutputRead => ({
  text: null,
  toolCalls: [],
  style: "payload",
  payload: output,
});

/** `{name, arguments}` from an OpenAI call, LangChain's `{name, args}`, a Vercel call, or `{name, arguments}`. */
function callOf(c: unknown): Call | null {
  if (!isObject(c)) return null;
  if (typeof c.toolName === "string") return { name: c.toolName, arguments: c.input ?? c.args ?? null };
  const openai = toCall(c);
  const f = isObject(openai) ? openai : c;
  if (!isNamedCall(f)) return null;
  return { name: f.name, arguments: f.arguments ?? f.args ?? f.input ?? null };
}

/** Every entry a named call, or null. */
function callsOf(list: unknown[]): Call[] | null {
  const calls: Call[] = [];
  for (const c of list) {
    const call = callOf(c);
    if (call === null) return null;
    calls.push(call);
  }
  return calls;
}

/** A message's text: a string (empty is none), or its text parts joined. */
function messageText(content: unknown): string | null {
  const t = contentText(content, "text");
  return t === "" ? null : t;
}

/** A message that carries calls: OpenAI's `tool_calls` (or `function_call`), LangChain's beside `additional_kwargs`. */
function carriesCalls(v: Rec): boolean {
  return (
    (Array.isArray(v.tool_calls) && v.tool_calls.length > 0) ||
    isObject(v.additional_kwargs) ||
    isObject(v.function_call)
  );
}

/** A message's calls: its `tool_calls`, else `additional_kwargs.tool_calls`, else a legacy `function_call`. */
function readMessage(m: Rec): OutputRead {
  const extra = isObject(m.additional_kwargs) ? m.additional_kwargs : {};
  let toolCalls: Call[] = [];
  for (const list of [m.tool_calls, extra.tool_calls]) {
    if (!Array.isArray(list) || list.length === 0) continue;
    toolCalls = list.flatMap((c) => callOf(c) ?? []);
    break;
  }
  if (toolCalls.length === 0) {
    const legacy = callOf(isObject(m.function_call) ? m.function_call : extra.function_call);
    if (legacy) toolCalls = [legacy];
  }
  return { text: messageText(m.content), toolCalls, style: "langfuse" };
}

/** Gemini content (`{parts, role: "model"}`), bare or as an agent framework's response (`{content: {parts}}`). */
function geminiParts(v: Rec): unknown[] | null {
  if (Array.isArray(v.parts) && (v.role === "model" || v.role === undefined)) return v.parts;
  if (isObject(v.content) && Array.isArray(v.content.parts)) return v.content.parts;
  return null;
}

function readObject(v: Rec, original: unknown): OutputRead {
  // Before the provider shapes: a message's content parts alone would read as an Anthropic body, without its calls.
  if (carriesCalls(v)) return readMessage(v);
  if (providerReader(v) !== null) return asPayload(v);
  const parts = geminiParts(v);
  if (parts !== null) {
    const r = readGeminiParts(parts);
    return { text: r.text, toolCalls: r.tool_calls as Call[], style: "langfuse" };
  }
  if (typeof v.role === "string" && "content" in v) return readMessage(v);
  // Kept as it came (a JSON string stays one): the payload parser shows it and marks it unrecognized.
  return asPayload(original);
}

function readArray(list: unknown[], original: unknown): OutputRead {
  if (list.length === 0) return { text: null, toolCalls: [], style: "langfuse" };
  // GenAI output messages: `[{role, parts: [...]}]`.
  if (list.some((m) => isObject(m) && Array.isArray(m.parts))) return readGenAiMessages(list);
  // A list of calls: the Vercel AI SDK's (`toolName`), OpenAI's, or `{name, arguments}`.
  const calls = callsOf(list);
  if (calls !== null) return { text: null, toolCalls: calls, style: "langfuse" };
  // A list of messages: the first from the assistant, as GenAI's.
  const first = list.find((m) => isObject(m) && m.role === "assistant");
  if (isObject(first)) return readMessage(first);
  // Streamed chunks, or nothing known: the payload parser decides.
  return asPayload(original);
}

/** A generation's output read as its text and calls, or handed to the payload parser. */
export function readLangfuseOutput(output: unknown): OutputRead {
  if (output === null || output === undefined) return { text: null, toolCalls: [], style: "none" };
  const v = jsonValue(output);
  if (typeof v === "string") return { text: v, toolCalls: [], style: "langfuse" };
  if (Array.isArray(v)) return readArray(v, output);
  if (isObject(v)) return readObject(v, output);
  return { text: String(v), toolCalls: [], style: "langfuse" };
}
