import { isObject } from "../isObject";
import { indexesUnder, jsonValue, str } from "./attributes";
import type { AttributeStyle } from "./generation";

/** The messages of one generation as an attribute style holds them. */
export interface StyleRead {
  style: AttributeStyle;
  text: string | null;
  toolCalls: { name: unknown; arguments: unknown }[];
}

type Attrs = Map<string, unknown>;

/** Whether a span is an LLM call, by the attributes each style sets on one (DESIGN.md). */
export function isLlmSpan(attrs: Attrs): boolean {
  const op = str(attrs, "gen_ai.operation.name")?.toLowerCase();
  if (op === "chat" || op === "text_completion" || op === "generate_content") return true;
  const type = str(attrs, "llm.request.type")?.toLowerCase();
  if (type === "chat" || type === "completion") return true;
  return str(attrs, "openinference.span.kind")?.toUpperCase() === "LLM";
}

/**
 * The messages of the first style present: current GenAI (`gen_ai.output.messages`), legacy
 * flattened (`gen_ai.completion.N.*`, OpenLLMetry's older `llm.completions.N.*`), OpenInference
 * (`llm.output_messages.N.message.*`); null when the span holds none of them.
 */
export function readStyles(attrs: Attrs): StyleRead | null {
  return readGenAi(attrs) ?? readLegacy(attrs) ?? readOpenInference(attrs);
}

/** GenAI semantic conventions: `gen_ai.output.messages`, a JSON string or a structured list, of `parts`. */
export function readGenAi(attrs: Attrs): StyleRead | null {
  if (!attrs.has("gen_ai.output.messages")) return null;
  const messages = jsonValue(attrs.get("gen_ai.output.messages"));
  // Not a message list (JSON that does not parse): no call could be looked for in it.
  if (!Array.isArray(messages)) return null;
  return readGenAiMessages(messages);
}

/** GenAI output messages (`[{role, parts: [{type: "text" | "tool_call", ...}]}]`): the first assistant message's text and calls. */
export function readGenAiMessages(messages: unknown[]): StyleRead {
  const first =
    messages.find((m) => isObject(m) && (m.role === undefined || m.role === "assistant")) ?? messages[0];
  const texts: string[] = [];
  const toolCalls: StyleRead["toolCalls"] = [];
  const parts = isObject(first) && Array.isArray(first.parts) ? first.parts : [];
  for (const p of parts) {
    if (!isObject(p)) continue;
    if (p.type === "text" && typeof p.content === "string") texts.push(p.content);
    else if (p.type === "tool_call") toolCalls.push({ name: p.name, arguments: p.arguments });
  }
  return { style: "genai", text: texts.length > 0 ? texts.join("") : null, toolCalls };
}

const LEGACY_PREFIXES = ["gen_ai.completion", "llm.completions"];

/** OpenLLMetry's flattened completions: `P.N.content`, `P.N.tool_calls.M.name|arguments`, `P.N.function_call.*`. */
export function readLegacy(attrs: Attrs): StyleRead | null {
  for (const prefix of LEGACY_PREFIXES) {
    const choices = indexesUnder(attrs, prefix);
    if (choices.length === 0) continue;
    const p = `${prefix}.${choices[0]}`;
    const toolCalls: StyleRead["toolCalls"] = [];
    for (const m of indexesUnder(attrs, `${p}.tool_calls`)) {
      const c = `${p}.tool_calls.${m}`;
      toolCalls.push({ name: attrs.get(`${c}.name`), arguments: attrs.get(`${c}.arguments`) });
    }
    // LiteLLM and OpenAI's older function calling: one `function_call`.
    if (
      toolCalls.length === 0 &&
      (attrs.has(`${p}.function_call.name`) || attrs.has(`${p}.function_call.arguments`))
    ) {
      toolCalls.push({
        name: attrs.get(`${p}.function_call.name`),
        arguments: attrs.get(`${p}.function_call.arguments`),
      });
    }
    const content = attrs.get(`${p}.content`);
    return { style: "legacy", text: typeof content === "string" ? content : null, toolCalls };
  }
  return null;
}

/** OpenInference: `llm.output_messages.N.message.content` (or `contents`) and `tool_calls.M.tool_call.function.*`. */
export function readOpenInference(attrs: Attrs): StyleRead | null {
  const messages = indexesUnder(attrs, "llm.output_messages");
  if (messages.length === 0) return null;
  const m = `llm.output_messages.${messages[0]}.message`;
  const toolCalls: StyleRead["toolCalls"] = [];
  for (const k of indexesUnder(attrs, `${m}.tool_calls`)) {
    const f = `${m}.tool_calls.${k}.tool_call.function`;
    toolCalls.push({ name: attrs.get(`${f}.name`), arguments: attrs.get(`${f}.arguments`) });
  }
  let text: string | null = str(attrs, `${m}.content`);
  if (text === null) {
    const parts: string[] = [];
    for (const k of indexesUnder(attrs, `${m}.contents`)) {
      const t = attrs.get(`${m}.contents.${k}.message_content.text`);
      if (typeof t === "string") parts.push(t);
    }
    if (parts.length > 0) text = parts.join("");
  }
  return { style: "openinference", text, toolCalls };
}

/** The tools the request offered, by name, in any style. */
export function offeredTools(attrs: Attrs): string[] {
  const names = new Set<string>();
  const add = (v: unknown) => {
    if (typeof v === "string" && v !== "") names.add(v);
  };
  const fromDefinition = (d: unknown) => {
    const v = jsonValue(d);
    if (!isObject(v)) return;
    add(isObject(v.function) ? v.function.name : v.name);
  };
  // GenAI: `gen_ai.tool.definitions`, a JSON list (or structured).
  const defs = jsonValue(attrs.get("gen_ai.tool.definitions"));
  if (Array.isArray(defs)) for (const d of defs) fromDefinition(d);
  // OpenLLMetry: `llm.request.functions.N.name`.
  for (const n of indexesUnder(attrs, "llm.request.functions"))
    add(attrs.get(`llm.request.functions.${n}.name`));
  // OpenInference: `llm.tools.N.tool.json_schema`, a JSON string.
  for (const n of indexesUnder(attrs, "llm.tools")) {
    const schema = attrs.get(`llm.tools.${n}.tool.json_schema`);
    if (schema !== undefined) fromDefinition(schema);
    else add(attrs.get(`llm.tools.${n}.tool.function.name`) ?? attrs.get(`llm.tools.${n}.tool.name`));
  }
  return [...names];
}

/** The model the request named and the one the response named. */
export function modelsOf(attrs: Attrs): { request: string | null; response: string | null } {
  let request = str(attrs, "gen_ai.request.model") ?? str(attrs, "llm.request.model");
  let response = str(attrs, "gen_ai.response.model") ?? str(attrs, "llm.response.model");
  if (str(attrs, "openinference.span.kind") !== null || attrs.has("llm.model_name")) {
    const params = jsonValue(attrs.get("llm.invocation_parameters"));
    if (request === null && isObject(params) && typeof params.model === "string" && params.model !== "")
      request = params.model;
    response ??= str(attrs, "llm.model_name");
  }
  return { request, response };
}

/** A raw provider body the span carries (OpenInference's `output.value` as JSON), for the payload parser. */
export function rawOutput(attrs: Attrs): unknown {
  const mime = str(attrs, "output.mime_type");
  const value = attrs.get("output.value");
  if (mime !== "application/json") return undefined;
  const parsed = jsonValue(value);
  return isObject(parsed) ? parsed : undefined;
}
