import type { Generation, SpanRead } from "../formats/generation";
import { readInspectGeneration } from "../formats/inspect";
import { readLangfuseObservation } from "../formats/langfuse";
import { readOtlpSpan } from "../formats/otlp";
import { readPhoenixSpan } from "../formats/phoenix";
import { readPromptfooResult } from "../formats/promptfoo";
import { WorldStateSchema } from "../gate/factSchema";
import type { WorldState } from "../gate/facts";
import { normalizePayload } from "../probe/normalize";
import type { NormalizedResponse } from "../probe/response";
import { describeIssues, type Probe } from "../probe/schema";

/** The formats whose records are spans of another tool's trace, or results of another tool (their stored `form`). */
export type SpanForm = "otlp" | "phoenix" | "promptfoo" | "langfuse" | "inspect";

export function isSpanForm(form: string): form is SpanForm {
  return (
    form === "otlp" || form === "phoenix" || form === "promptfoo" || form === "langfuse" || form === "inspect"
  );
}

/** One span, parsed from its bytes, read by its format's reader. */
export function readSpan(form: SpanForm, value: unknown): SpanRead {
  if (form === "promptfoo") return readPromptfooResult(value);
  if (form === "inspect") return readInspectGeneration(value);
  if (form === "langfuse") return readLangfuseObservation(value);
  return form === "otlp" ? readOtlpSpan(value) : readPhoenixSpan(value);
}

/** What a generation gives a trace record, before its probe and run are chosen. */
export interface SpanParts {
  id: string | null;
  model: string | null;
  payloadModel: string | null;
  response: NormalizedResponse;
  raw: unknown;
  world_state?: WorldState;
  started_at?: string;
  latency_ms?: number;
}

/** A generation's response, identity, models, times and world state; a reason when its world state is bad. */
export function spanParts(g: Generation): SpanParts | { error: string } {
  let response: NormalizedResponse;
  let payloadModel = g.responseModel;
  if (g.payload !== undefined) {
    const n = normalizePayload(g.payload);
    response = { text: n.text, tool_calls: n.tool_calls, fenced: n.fenced };
    if (n.unrecognized) response.unrecognized = true;
    payloadModel ??= n.model;
  } else {
    response = { text: g.text, tool_calls: g.toolCalls, fenced: false };
    // An LLM span with its messages in no style read here (content capture off, another style):
    // no call could be looked for, which an empty response would hide as DRIFT.
    if (g.style === "none") response.unrecognized = true;
  }
  const parts: SpanParts = {
    id: g.extId !== undefined ? g.extId : `${g.traceId}:${g.spanId}`,
    model: g.requestModel ?? g.responseModel,
    payloadModel,
    response,
    raw: g.payload,
  };
  if (g.worldState !== undefined) {
    const ws = WorldStateSchema.safeParse(g.worldState);
    if (!ws.success)
      return { error: `${g.worldStateFrom ?? "assumeprobe.world_state"}: ${describeIssues(ws.error)}` };
    parts.world_state = ws.data;
  }
  if (g.startedAt !== undefined) parts.started_at = g.startedAt;
  if (g.latencyMs !== undefined) parts.latency_ms = g.latencyMs;
  return parts;
}

/** The tool names a probe offers (`tool`, `tools`). */
export function probeTools(p: Probe): string[] {
  const names: string[] = [];
  if (p.tool?.name) names.push(p.tool.name);
  for (const t of p.tools ?? []) if (t.name) names.push(t.name);
  return names;
}

/**
 * The probe of a generation (DESIGN.md, "Probe resolution"): the one it names, else `--probe`,
 * else the single probe whose tool the request offered or the generation called. None or
 * several: a reason naming the candidates and how to choose.
 */
export function resolveSpanProbe(
  g: Generation,
  given: string | undefined,
  lookup: (id: string) => Probe | undefined,
  all: () => Probe[],
): Probe | { error: string } {
  const named = g.probe ?? given;
  if (named !== undefined) {
    const p = lookup(named);
    return (
      p ?? {
        error: `unknown probe "${named}"${g.probe !== undefined ? ` (${g.probeFrom ?? "assumeprobe.probe"})` : ""}`,
      }
    );
  }
  const used = new Set<string>(g.offeredTools);
  for (const c of g.toolCalls) if (typeof c.name === "string") used.add(c.name);
  const matches = all().filter((p) => probeTools(p).some((t) => used.has(t)));
  if (matches.length === 1) return matches[0];
  const tools = used.size > 0 ? [...used].sort().join(", ") : "none";
  const attr = g.probeFrom === null ? "" : ` (or ${g.probeFrom ?? "the span attribute assumeprobe.probe"})`;
  if (matches.length === 0)
    return {
      error: `no probe offers the tools this generation was offered or called (${tools}); choose one with --probe ID${attr}, or make a probe from this trace's text`,
    };
  return {
    error: `several probes offer the tools this generation was offered or called (${tools}): ${matches
      .map((p) => p.id)
      .sort()
      .join(", ")}; choose one with --probe ID${attr}`,
  };
}
