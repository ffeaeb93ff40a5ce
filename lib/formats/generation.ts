/**
 * One model generation read from a span of another tool's trace (an OTLP span, a Phoenix span):
 * what assumeprobe scores, before a probe is chosen for it. Pure data; lib/ingest/spanRecord.ts
 * turns it into a trace record.
 */
export interface Generation {
  traceId: string;
  spanId: string;
  /** The trace's identity when it is not `traceId:spanId` (a promptfoo result's id; null: none). */
  extId?: string | null;
  /** The model the request named (the run's pinned model). */
  requestModel: string | null;
  /** The model the response named (feeds `model_mismatch`). */
  responseModel: string | null;
  text: string | null;
  /** The calls of the first choice, as `{name, arguments}` (arguments may be a JSON string). */
  toolCalls: { name: unknown; arguments: unknown }[];
  /** The response read from a raw provider body, when the span carried one and no message attributes. */
  payload?: unknown;
  /** The tools the request offered, by name. */
  offeredTools: string[];
  /** Which attribute style held the messages. */
  style: AttributeStyle;
  startedAt?: string;
  latencyMs?: number;
  /** `assumeprobe.world_state`: the world state the agent recorded. */
  worldState?: unknown;
  /** Where the world state was read from, for messages (default `assumeprobe.world_state`). */
  worldStateFrom?: string;
  /** `assumeprobe.probe`: the probe the agent named. */
  probe?: string;
  /** Where a generation may name its probe, for messages (default the span attribute `assumeprobe.probe`; null: nowhere). */
  probeFrom?: string | null;
}

export type AttributeStyle =
  | "genai"
  | "legacy"
  | "openinference"
  | "payload"
  | "promptfoo"
  | "langfuse"
  | "none";

/** What a span is: a generation, another span (skipped and counted), or one that cannot be read. */
export type SpanRead =
  | { kind: "generation"; generation: Generation }
  | { kind: "skip" }
  | { kind: "error"; reason: string };

/** A span's start as ISO 8601 and its duration in milliseconds, from ISO times (Phoenix's, Langfuse's). */
export function spanTimes(start: unknown, end: unknown): { startedAt?: string; latencyMs?: number } {
  const iso = (v: unknown) => {
    const t = typeof v === "string" && v !== "" ? Date.parse(v) : Number.NaN;
    return Number.isNaN(t) ? undefined : t;
  };
  const s = iso(start);
  const e = iso(end);
  if (s === undefined) return {};
  const out: { startedAt?: string; latencyMs?: number } = { startedAt: new Date(s).toISOString() };
  if (e !== undefined && e >= s) out.latencyMs = e - s;
  return out;
}
