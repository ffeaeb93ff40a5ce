import { decodeKeyValues } from "../formats/anyValue";
import { flattenAttributes, indexesUnder, jsonValue } from "../formats/attributes";
import { isInspectGeneration, modelEventOf } from "../formats/inspect";
import { langfuseToolDefinitions } from "../formats/langfuseTools";
import { isObject } from "../isObject";
import { describeIssues, type Probe, ProbeSchema, type Tool } from "./schema";

/**
 * A probe drafted from a real trace (issue 23, "A probe made from a real trace"): the tools the
 * request offered with their JSON schemas, and its visible messages (system, user) as the world.
 * Pure: the page reads a record's text, this turns it into a draft, and the reviewer's choices
 * (probed fields, hidden facts) into a probe the existing schema validates.
 */
export interface ProbeDraft {
  tools: Tool[];
  system: string;
  user: string;
}

/**
 * A tool definition in OpenAI chat (`function: {…}`), OpenAI Responses / GenAI (flat), Anthropic
 * (`input_schema`), Vercel AI SDK (`inputSchema`) or pydantic-ai (`parameters_json_schema`) form.
 */
export function toolOf(def: unknown): Tool | null {
  const d = jsonValue(def);
  if (!isObject(d)) return null;
  const f = isObject(d.function) ? d.function : d;
  if (typeof f.name !== "string" || f.name === "") return null;
  const schema = f.parameters ?? f.input_schema ?? f.inputSchema ?? f.json_schema ?? f.parameters_json_schema;
  const parameters = isObject(jsonValue(schema)) ? (jsonValue(schema) as Record<string, unknown>) : undefined;
  return {
    name: f.name,
    description: typeof f.description === "string" ? f.description : "",
    parameters: parameters ?? { type: "object", properties: {} },
    mutating: true,
  };
}

/** The text of a message's content: a string, a list of parts or blocks (`text`, `content`). */
function contentText(c: unknown): string {
  if (typeof c === "string") return c;
  if (!Array.isArray(c)) return "";
  const out: string[] = [];
  for (const p of c) {
    if (typeof p === "string") out.push(p);
    else if (isObject(p) && (p.type === undefined || p.type === "text" || p.type === "input_text")) {
      if (typeof p.text === "string") out.push(p.text);
      else if (typeof p.content === "string") out.push(p.content);
    }
  }
  return out.join("");
}

interface Message {
  role: string;
  text: string;
}

/** Messages as `{role, content}` (OpenAI, Anthropic) or `{role, parts}` (GenAI). */
function messagesOf(list: unknown): Message[] {
  const v = jsonValue(list);
  if (!Array.isArray(v)) return [];
  const out: Message[] = [];
  for (const m of v) {
    if (!isObject(m) || typeof m.role !== "string") continue;
    out.push({ role: m.role, text: contentText(m.content ?? m.parts) });
  }
  return out;
}

/** The world a request shows: its system text and its user messages (other roles are not the world). */
function world(messages: Message[], system: string): { system: string; user: string } {
  const sys = [
    system,
    ...messages.filter((m) => m.role === "system" || m.role === "developer").map((m) => m.text),
  ]
    .filter((t) => t !== "")
    .join("\n\n");
  const user = messages
    .filter((m) => m.role === "user")
    .map((m) => m.text)
    .filter((t) => t !== "")
    .join("\n\n");
  return { system: sys, user };
}

/** The request parts of an OTLP span (GenAI or OpenInference attributes). */
function fromSpan(span: Record<string, unknown>): ProbeDraft {
  const attrs = flattenAttributes(decodeKeyValues(span.attributes));
  const tools: Tool[] = [];
  const defs = jsonValue(attrs.get("gen_ai.tool.definitions"));
  if (Array.isArray(defs)) for (const d of defs) pushTool(tools, toolOf(d));
  for (const n of indexesUnder(attrs, "llm.tools"))
    pushTool(tools, toolOf(attrs.get(`llm.tools.${n}.tool.json_schema`)));
  return { tools, ...attributeWorld(attrs) };
}

/** The world of span attributes: GenAI or OpenInference input messages, GenAI system instructions. */
function attributeWorld(attrs: Map<string, unknown>): { system: string; user: string } {
  let messages = messagesOf(attrs.get("gen_ai.input.messages"));
  if (messages.length === 0) {
    for (const n of indexesUnder(attrs, "llm.input_messages")) {
      const role = attrs.get(`llm.input_messages.${n}.message.role`);
      const content = attrs.get(`llm.input_messages.${n}.message.content`);
      if (typeof role === "string") messages.push({ role, text: typeof content === "string" ? content : "" });
    }
  }
  if (messages.length === 0) messages = messagesOf(attrs.get("gen_ai.prompt"));
  const instructions = jsonValue(attrs.get("gen_ai.system_instructions"));
  const system = typeof instructions === "string" ? instructions : contentText(instructions);
  return world(messages, system);
}

/** A Langfuse generation (an observation of type GENERATION, beside its trace id). */
function isLangfuseGeneration(v: unknown): v is Record<string, unknown> {
  return isObject(v) && v.type === "GENERATION" && typeof v.traceId === "string" && typeof v.id === "string";
}

const text = (v: unknown): string => (typeof v === "string" ? v : contentText(v));

/**
 * The request parts of a Langfuse generation: the tools it offered (lib/formats/langfuseTools.ts)
 * and the messages of its input as its framework wrote them (a message list; a request body with
 * `messages` or Gemini's `contents` and `config.system_instruction`; the Vercel AI SDK's `prompt`
 * and `system`), else the span attributes its metadata keeps.
 */
function fromObservation(obs: Record<string, unknown>): ProbeDraft {
  const tools: Tool[] = [];
  for (const d of langfuseToolDefinitions(obs)) pushTool(tools, toolOf(d));
  const input = jsonValue(obs.input);
  const req = isObject(input) ? input : {};
  const params = jsonValue(obs.modelParameters);
  const config = isObject(req.config) ? req.config : isObject(params) ? params : {};
  const list = Array.isArray(input) ? input : (req.messages ?? req.contents);
  const messages = messagesOf(list);
  if (typeof req.contents === "string") messages.push({ role: "user", text: req.contents });
  if (typeof req.prompt === "string") messages.push({ role: "user", text: req.prompt });
  const system = [req.system, req.instructions, config.system_instruction, config.instructions]
    .map((v) => text(jsonValue(v)))
    .find((t) => t !== "");
  const drawn = world(messages, system ?? "");
  if (drawn.user === "" && drawn.system === "") {
    const metadata = jsonValue(obs.metadata);
    const attrs = isObject(metadata) && isObject(metadata.attributes) ? metadata.attributes : {};
    return { tools, ...attributeWorld(flattenAttributes(attrs)) };
  }
  return { tools, ...drawn };
}

function pushTool(tools: Tool[], t: Tool | null) {
  if (t && !tools.some((x) => x.name === t.name)) tools.push(t);
}

/**
 * The request of an Inspect generation record (lib/formats/inspect.ts): its model event's `tools`
 * and `input` messages (else the sample's messages before the answer), `attachment://` resolved.
 */
function fromInspect(sample: Record<string, unknown>): ProbeDraft {
  const attachments = isObject(sample.attachments) ? sample.attachments : {};
  const resolve = (v: unknown): unknown => {
    if (typeof v === "string" && v.startsWith("attachment://")) {
      const a = attachments[v.slice(13)];
      return typeof a === "string" ? a : v;
    }
    if (Array.isArray(v)) return v.map((p) => (isObject(p) ? { ...p, text: resolve(p.text) } : p));
    return v;
  };
  const event = modelEventOf(sample);
  const tools: Tool[] = [];
  if (event && Array.isArray(event.tools)) for (const d of event.tools) pushTool(tools, toolOf(d));
  const input = event ? event.input : sample.messages;
  const list = Array.isArray(input) ? input : [];
  const messages = messagesOf(list.map((m) => (isObject(m) ? { ...m, content: resolve(m.content) } : m)));
  return { tools, ...world(messages, "") };
}

/**
 * A draft from a record's parsed value: an OTLP span (`attributes` as `{key, value}`), an Inspect
 * generation record, a Langfuse generation, a request body (`tools` and `messages`, OpenAI or Anthropic, `system` beside
 * them), or one under `request`.
 */
export function draftFromRecord(value: unknown): ProbeDraft {
  if (isObject(value) && Array.isArray(value.attributes) && (value.spanId ?? value.span_id) !== undefined)
    return fromSpan(value);
  if (isInspectGeneration(value)) return fromInspect(value.sample);
  if (isLangfuseGeneration(value)) return fromObservation(value);
  const req = isObject(value) && isObject(value.request) ? value.request : value;
  if (!isObject(req)) return { tools: [], system: "", user: "" };
  const tools: Tool[] = [];
  if (Array.isArray(req.tools)) for (const d of req.tools) pushTool(tools, toolOf(d));
  const messages = messagesOf(req.messages ?? req.input);
  return {
    tools,
    ...world(
      messages,
      contentText(req.system) || (typeof req.instructions === "string" ? req.instructions : ""),
    ),
  };
}

/** A top-level schema property a probe can probe, and whether the schema requires it. */
export interface ProbeableProperty {
  name: string;
  required: boolean;
}

/**
 * Every top-level schema property of a tool, optional ones first: the fields a probe can probe. A
 * required one is probeable too: the user's request may leave it out (When2Call's held-out
 * parameters are required ones, and OpenAI's strict mode marks every property required), and a
 * model that fills it with a value it was never shown is just what a probe is for.
 */
export function probeableProperties(tool: Tool): ProbeableProperty[] {
  const params = tool.parameters;
  if (!isObject(params) || !isObject(params.properties)) return [];
  const required = new Set(
    Array.isArray(params.required) ? params.required.filter((r) => typeof r === "string") : [],
  );
  const all = Object.keys(params.properties).map((name) => ({ name, required: required.has(name) }));
  return [...all.filter((p) => !p.required), ...all.filter((p) => p.required)];
}

/** A tool's optional top-level schema properties. */
export function optionalProperties(tool: Tool): string[] {
  return probeableProperties(tool)
    .filter((p) => !p.required)
    .map((p) => p.name);
}

export interface ProbeChoices {
  id: string;
  tool: string;
  fields: string[];
  /** Field → the value the world hides from the model. */
  hidden: Record<string, string>;
}

/** The probe the reviewer chose, validated by the probe schema; an error naming the path when it is not valid. */
export function probeFromDraft(
  draft: ProbeDraft,
  c: ProbeChoices,
): { ok: true; probe: Probe } | { ok: false; error: string } {
  const tool = draft.tools.find((t) => t.name === c.tool);
  if (!tool) return { ok: false, error: `tool: the request offered no tool "${c.tool}"` };
  if (c.fields.length === 0) return { ok: false, error: "fields: pick at least one probed field" };
  const props = probeableProperties(tool).map((p) => p.name);
  for (const f of c.fields)
    if (!props.includes(f)) return { ok: false, error: `fields: "${f}" is not a property of ${tool.name}` };
  const input: Record<string, unknown> = {
    id: c.id,
    system: draft.system,
    user: draft.user,
    hidden: { ...c.hidden },
    redacted: {},
    tool,
    fields: c.fields,
  };
  if (draft.tools.length > 1) input.tools = draft.tools;
  return parseProbe(input);
}

/** A probe's JSON (text or value) validated by the probe schema: the error names the path of what was wrong. */
export function parseProbe(input: unknown): { ok: true; probe: Probe } | { ok: false; error: string } {
  let value = input;
  if (typeof input === "string") {
    if (input.trim() === "") return { ok: false, error: "(top): paste a probe's JSON" };
    try {
      value = JSON.parse(input);
    } catch (e) {
      return { ok: false, error: `(top): not JSON: ${(e as Error).message}` };
    }
  }
  const r = ProbeSchema.safeParse(value);
  if (!r.success) return { ok: false, error: describeIssues(r.error) };
  return { ok: true, probe: r.data };
}
