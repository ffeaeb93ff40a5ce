import type { Probe, Tool } from "../probe/schema";

/** A chat-completions request body, as the runner sends it (the SDK's type is wider). */
export interface ChatRequest {
  model: string;
  messages: { role: "system" | "user"; content: string }[];
  tools?: {
    type: "function";
    function: { name: string; description: string; parameters: Record<string, unknown> };
  }[];
  /** Unset: the server's default (the fuzzer wants sloppy answers). */
  temperature?: number;
  max_tokens?: number;
}

export interface RequestParams {
  model: string;
  temperature: number;
  maxTokens?: number;
}

/** Python's repr of a value, as the first article's `.format(state=REDACTED)` prints its state. */
export function pythonRepr(v: unknown): string {
  if (v === null || v === undefined) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "number") return String(v);
  if (typeof v === "string") {
    const q = v.includes("'") && !v.includes('"') ? '"' : "'";
    const body = v.replaceAll("\\", "\\\\").replaceAll("\n", "\\n");
    return q + (q === "'" ? body.replaceAll("'", "\\'") : body) + q;
  }
  if (Array.isArray(v)) return `[${v.map(pythonRepr).join(", ")}]`;
  if (typeof v === "object")
    return `{${Object.entries(v)
      .map(([k, x]) => `${pythonRepr(k)}: ${pythonRepr(x)}`)
      .join(", ")}}`;
  return String(v);
}

/**
 * The system text the model sees: the probe's own, with `{state}` (the article's placeholder)
 * replaced by the redacted state as the article formats it. A system text without the placeholder
 * already holds its state (the built-in probes do) and is sent as written.
 */
export function systemText(probe: Probe): string {
  return probe.system.includes("{state}")
    ? probe.system.replaceAll("{state}", pythonRepr(probe.redacted))
    : probe.system;
}

function toFunction(t: Pick<Tool, "name" | "description" | "parameters">) {
  return {
    type: "function" as const,
    function: { name: t.name, description: t.description, parameters: t.parameters },
  };
}

/** A clarify tool the probe names but does not define: one question for the user. */
const clarifyTool = (name: string) => ({
  name,
  description: "Ask the user one clarifying question before acting.",
  parameters: {
    type: "object",
    required: ["question"],
    properties: { question: { type: "string" } },
  },
});

/** The tools offered: `tools` when the probe lists several, else `tool`, plus its clarify tool. */
export function offeredTools(probe: Probe): ChatRequest["tools"] {
  const tools = probe.tools && probe.tools.length > 0 ? probe.tools : probe.tool ? [probe.tool] : [];
  const out = tools.map(toFunction);
  if (probe.clarify_tool && !tools.some((t) => t.name === probe.clarify_tool))
    out.push(toFunction(clarifyTool(probe.clarify_tool)));
  // Some servers refuse an empty list: a world where no tool fits offers none.
  return out.length > 0 ? out : undefined;
}

/** The request for one sample of a probe: its system and user text, its tools, our parameters. */
export function buildChatRequest(probe: Probe, params: RequestParams): ChatRequest {
  const system = systemText(probe);
  const body: ChatRequest = {
    model: params.model,
    // A probe without a system text sends none (some servers refuse an empty one).
    messages: [
      ...(system === "" ? [] : [{ role: "system" as const, content: system }]),
      { role: "user" as const, content: probe.user },
    ],
    temperature: params.temperature,
  };
  const tools = offeredTools(probe);
  if (tools) body.tools = tools;
  if (params.maxTokens !== undefined) body.max_tokens = params.maxTokens;
  return body;
}

/** The parameters a record carries (`params`): what shaped the answer besides the probe. */
export function recordParams(params: RequestParams): Record<string, unknown> {
  const out: Record<string, unknown> = { temperature: params.temperature };
  if (params.maxTokens !== undefined) out.max_tokens = params.maxTokens;
  return out;
}
