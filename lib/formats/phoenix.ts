import { isObject } from "../isObject";
import { type SpanRead, spanTimes } from "./generation";
import type { Frame, ScannerOptions } from "./jsonScanner";
import { generationOf } from "./spanGeneration";

/**
 * Phoenix span JSON (Arize Phoenix's span export and REST API, OpenInference attributes):
 * `{name, context: {trace_id, span_id}, span_kind, parent_id, start_time, end_time, status_code,
 * attributes, events}`, the attributes nested (`{llm: {output_messages: [...]}}`) or flattened
 * (`{"llm.output_messages.0.message.content": ...}`), or a flattened row of Phoenix's spans
 * dataframe (`"context.span_id"`, `"attributes.llm.model_name"` columns). Spans come one a line,
 * as a JSON array, or under `data` (the REST API's page).
 */

/** Where the spans of a Phoenix file are. */
export type PhoenixLayout = "lines" | "array" | "data";

export function selectPhoenixSpan(layout: PhoenixLayout): (stack: readonly Frame[]) => boolean {
  if (layout === "lines") return (s) => s.length === 0;
  if (layout === "array") return (s) => s.length === 1 && s[0].type === "a";
  return (s) => s.length === 2 && s[0].type === "o" && s[0].key === "data" && s[1].type === "a";
}

/** Where each top-level value holds its spans (none for spans one a line: each line is one), for JsonScanner's expect. */
export function phoenixHolds(layout: PhoenixLayout): ScannerOptions["expect"] {
  if (layout === "lines") return undefined;
  if (layout === "array")
    return { holds: (s) => s.length === 1 && s[0].type === "a", what: "array of spans" };
  return { holds: (s) => s.length === 2 && s[0].key === "data" && s[1].type === "a", what: "data" };
}

/** One Phoenix span as a generation, a skipped span, or an error. */
export function readPhoenixSpan(span: unknown): SpanRead {
  if (!isObject(span)) return { kind: "error", reason: "the span is not an object" };
  const ctx = isObject(span.context)
    ? span.context
    : { trace_id: span["context.trace_id"], span_id: span["context.span_id"] };
  if (typeof ctx.trace_id !== "string" || typeof ctx.span_id !== "string")
    return { kind: "error", reason: "context: needs trace_id and span_id strings" };
  if (span.attributes !== undefined && span.attributes !== null && !isObject(span.attributes))
    return { kind: "error", reason: "attributes: must be an object" };
  const frame: Parameters<typeof generationOf>[1] = { traceId: ctx.trace_id, spanId: ctx.span_id };
  if (typeof span.span_kind === "string") frame.spanKind = span.span_kind;
  Object.assign(frame, spanTimes(span.start_time, span.end_time));
  return generationOf(attributesOf(span), frame);
}

/** The span's attributes: its `attributes` object, and a flattened row's `attributes.KEY` columns. */
function attributesOf(span: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = isObject(span.attributes) ? { ...span.attributes } : {};
  for (const k of Object.keys(span))
    if (k.startsWith("attributes.") && span[k] !== null && !(k.slice(11) in out)) out[k.slice(11)] = span[k];
  return out;
}
