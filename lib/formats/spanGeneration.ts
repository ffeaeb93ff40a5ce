import { flattenAttributes, jsonValue, str } from "./attributes";
import type { Generation, SpanRead } from "./generation";
import { isLlmSpan, modelsOf, offeredTools, rawOutput, readStyles } from "./styles";

export interface SpanFrame {
  traceId: string;
  spanId: string;
  startedAt?: string;
  latencyMs?: number;
  /** Phoenix's own `span_kind`, beside the attributes. */
  spanKind?: string;
}

/** A span's attributes, whatever format carried them, read as one generation (or skipped). */
export function generationOf(attributes: Record<string, unknown>, frame: SpanFrame): SpanRead {
  const attrs = flattenAttributes(attributes);
  if (!isLlmSpan(attrs) && frame.spanKind?.toUpperCase() !== "LLM") return { kind: "skip" };
  const models = modelsOf(attrs);
  const read = readStyles(attrs);
  const g: Generation = {
    traceId: frame.traceId,
    spanId: frame.spanId,
    requestModel: models.request,
    responseModel: models.response,
    text: read?.text ?? null,
    toolCalls: read?.toolCalls ?? [],
    offeredTools: offeredTools(attrs),
    style: read?.style ?? "none",
  };
  // No messages in any style (or an empty one): a raw provider body the span carries is read instead.
  if (g.text === null && g.toolCalls.length === 0) {
    const raw = rawOutput(attrs);
    if (raw !== undefined) {
      g.payload = raw;
      g.style = "payload";
    }
  }
  if (frame.startedAt !== undefined) g.startedAt = frame.startedAt;
  if (frame.latencyMs !== undefined) g.latencyMs = frame.latencyMs;
  if (attrs.has("assumeprobe.world_state")) {
    const ws = jsonValue(attrs.get("assumeprobe.world_state"));
    if (typeof ws === "string") return { kind: "error", reason: "assumeprobe.world_state is not JSON" };
    g.worldState = ws;
  }
  const probe = str(attrs, "assumeprobe.probe");
  if (probe !== null) g.probe = probe;
  return { kind: "generation", generation: g };
}
