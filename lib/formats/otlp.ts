import { isObject } from "../isObject";
import { decodeKeyValues } from "./anyValue";
import type { SpanRead } from "./generation";
import type { Frame } from "./jsonScanner";
import { generationOf } from "./spanGeneration";

/**
 * OTLP JSON (opentelemetry-proto's JSON encoding, as the collector's file exporter and the OTLP/HTTP
 * JSON exporters write it): `{resourceSpans: [{resource, scopeSpans: [{scope, spans: [...]}]}]}`,
 * one document or one a line. Each span is read on its own, from its own bytes.
 */

const RESOURCE_SPANS = new Set(["resourceSpans", "resource_spans"]);
const SCOPE_SPANS = new Set(["scopeSpans", "scope_spans", "instrumentationLibrarySpans"]);

/** Picks `resourceSpans[i].scopeSpans[j].spans[k]` (each span of each line or document). */
export function selectOtlpSpan(stack: readonly Frame[]): boolean {
  return (
    stack.length === 6 &&
    stack[0].type === "o" &&
    RESOURCE_SPANS.has(stack[0].key ?? "") &&
    stack[1].type === "a" &&
    stack[2].type === "o" &&
    SCOPE_SPANS.has(stack[2].key ?? "") &&
    stack[3].type === "a" &&
    stack[4].type === "o" &&
    stack[4].key === "spans" &&
    stack[5].type === "a"
  );
}

/** Where a TracesData holds its spans: a value that opens no `resourceSpans` array is none (JsonScanner's expect). */
export const OTLP_HOLDS = {
  holds: (stack: readonly Frame[]) =>
    stack.length === 2 &&
    stack[0].type === "o" &&
    RESOURCE_SPANS.has(stack[0].key ?? "") &&
    stack[1].type === "a",
  what: "resourceSpans",
};

/** Whether a key seen while sniffing makes the content OTLP: `scopeSpans` inside `resourceSpans[]`. */
export function otlpKey(stack: readonly Frame[], key: string): boolean {
  return (
    stack.length === 3 &&
    stack[0].type === "o" &&
    RESOURCE_SPANS.has(stack[0].key ?? "") &&
    stack[1].type === "a" &&
    SCOPE_SPANS.has(key)
  );
}

const NANOS_PER_MS = 1_000_000n;

function nanos(v: unknown): bigint | null {
  if (typeof v === "number" && Number.isSafeInteger(v) && v > 0) return BigInt(v);
  if (typeof v === "string" && /^\d{1,20}$/.test(v) && v !== "0") return BigInt(v);
  return null;
}

/** One OTLP span (parsed from its bytes) as a generation, a skipped span, or an error. */
export function readOtlpSpan(span: unknown): SpanRead {
  if (!isObject(span)) return { kind: "error", reason: "the span is not an object" };
  const traceId = span.traceId ?? span.trace_id;
  const spanId = span.spanId ?? span.span_id;
  if (typeof traceId !== "string" || traceId === "" || typeof spanId !== "string" || spanId === "")
    return { kind: "error", reason: "the span has no traceId and spanId strings" };
  if (span.attributes !== undefined && !Array.isArray(span.attributes))
    return { kind: "error", reason: "attributes: must be a list of {key, value}" };
  const attributes = decodeKeyValues(span.attributes);
  const start = nanos(span.startTimeUnixNano ?? span.start_time_unix_nano);
  const end = nanos(span.endTimeUnixNano ?? span.end_time_unix_nano);
  const frame: Parameters<typeof generationOf>[1] = { traceId, spanId };
  if (start !== null) frame.startedAt = new Date(Number(start / NANOS_PER_MS)).toISOString();
  if (start !== null && end !== null && end >= start) frame.latencyMs = Number(end - start) / 1e6;
  return generationOf(attributes, frame);
}
