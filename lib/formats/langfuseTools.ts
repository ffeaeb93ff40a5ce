import { isObject } from "../isObject";
import { flattenAttributes, indexesUnder, jsonValue } from "./attributes";

/**
 * The tools a Langfuse generation's request offered, each definition as the framework wrote it:
 * Langfuse's own extraction (`toolDefinitions`: name → `{description, parameters}`), the Vercel AI
 * SDK's `metadata.tools` (JSON strings), span attributes kept in `metadata.attributes` (GenAI's
 * `gen_ai.tool.definitions`, OpenInference's `llm.tools.N.tool.json_schema`, pydantic-ai's
 * `model_request_parameters`), and the input itself (a request's `tools`, Gemini's
 * `config.tools[].function_declarations`, LangGraph's `role: "tool"` messages holding a definition).
 * Read for probe resolution (by name) and for drafting a probe (lib/probe/fromTrace.ts).
 */

type Rec = Record<string, unknown>;

/** A definition's tool name: OpenAI chat's `function.name`, else `name`. */
export function toolNameOf(def: unknown): string | null {
  const d = jsonValue(def);
  if (!isObject(d)) return null;
  const name = isObject(d.function) ? d.function.name : d.name;
  return typeof name === "string" && name !== "" ? name : null;
}

/** A list of definitions, Gemini's `{function_declarations: [...]}` entries opened into theirs. */
function definitionsIn(list: unknown, out: unknown[]) {
  const l = jsonValue(list);
  if (!Array.isArray(l)) return;
  for (const entry of l) {
    const d = jsonValue(entry);
    const declarations = isObject(d) ? (d.function_declarations ?? d.functionDeclarations) : undefined;
    if (Array.isArray(declarations)) out.push(...declarations);
    else out.push(d);
  }
}

function fromAttributes(attributes: unknown, out: unknown[]) {
  const a = jsonValue(attributes);
  if (!isObject(a)) return;
  const attrs = flattenAttributes(a);
  definitionsIn(attrs.get("gen_ai.tool.definitions"), out);
  for (const n of indexesUnder(attrs, "llm.tools")) {
    const schema = attrs.get(`llm.tools.${n}.tool.json_schema`);
    if (schema !== undefined) out.push(jsonValue(schema));
  }
  definitionsIn(attrs.get("ai.prompt.tools"), out);
  const pydantic = jsonValue(attrs.get("model_request_parameters"));
  if (isObject(pydantic)) {
    definitionsIn(pydantic.function_tools, out);
    definitionsIn(pydantic.output_tools, out);
  }
}

function fromInput(input: unknown, out: unknown[]) {
  const v = jsonValue(input);
  if (Array.isArray(v)) {
    // LangGraph (Python) writes each bound tool as a `role: "tool"` message whose content is its definition.
    for (const m of v)
      if (isObject(m) && m.role === "tool" && isObject(m.content) && toolNameOf(m.content) !== null)
        out.push(m.content);
    return;
  }
  if (!isObject(v)) return;
  definitionsIn(v.tools, out);
  if (isObject(v.config)) definitionsIn(v.config.tools, out);
}

/** Every tool definition the generation's request offered, in the order found (names may repeat). */
export function langfuseToolDefinitions(obs: Rec): unknown[] {
  const out: unknown[] = [];
  const own = jsonValue(obs.toolDefinitions);
  if (isObject(own)) {
    for (const [name, def] of Object.entries(own)) {
      const d = jsonValue(def);
      out.push({ ...(isObject(d) ? d : {}), name });
    }
  } else definitionsIn(own, out);
  const metadata = jsonValue(obs.metadata);
  if (isObject(metadata)) {
    definitionsIn(metadata.tools, out);
    fromAttributes(metadata.attributes, out);
  }
  fromInput(obs.input, out);
  return out.filter((d) => toolNameOf(d) !== null);
}
