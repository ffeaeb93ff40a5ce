import { isObject } from "../isObject";
import { flattenAttributes, jsonValue, str } from "./attributes";
import { type Generation, type SpanRead, spanTimes } from "./generation";
import type { Frame, ScannerOptions } from "./jsonScanner";
import { readLangfuseOutput } from "./langfuseOutput";
import { langfuseToolDefinitions, toolNameOf } from "./langfuseTools";
import { modelsOf } from "./styles";

/**
 * Langfuse exports: a trace's "Download JSON" (`{trace, observations}`; the newer `{observations,
 * scores}`; the public API's trace, its fields beside `observations`), observations in a JSON array
 * (the batch export's JSON) or one a line (its JSONL), or the public API's page (`{data: [...]}`).
 * An observation is `{id, traceId, type, name, startTime, endTime, parentObservationId, model,
 * input, output, metadata, ...}`, `input`, `output` and `metadata` as values or JSON strings. One
 * `GENERATION` is one model generation; every other type (SPAN, EVENT, AGENT, TOOL, ...) is skipped
 * and counted. Each observation is read on its own, from its own bytes.
 */

/** Where a file's observations are. */
export type LangfuseLayout = "lines" | "array" | "observations" | "data";

/** The observation types Langfuse writes (a value among them tells an observation). */
const TYPES = "SPAN|GENERATION|EVENT|AGENT|TOOL|CHAIN|RETRIEVER|EVALUATOR|EMBEDDING|GUARDRAIL";
const TYPE_VALUE = new RegExp(`"type"\\s*:\\s*"(?:${TYPES})"`);

/** Key path prefixes (detect.ts's Head) of observations, per layout; `trace.observations[]` is the trace's own list in a download. */
const LAYOUTS: [LangfuseLayout, string][] = [
  ["lines", ""],
  ["array", "[]."],
  ["observations", "observations[]."],
  ["observations", "trace.observations[]."],
  ["data", "data[]."],
];

/**
 * The layout of a file's observations from its head, when it holds observations: `type` (one of
 * Langfuse's observation types) beside `traceId`; null otherwise. A head that also holds our own
 * records (`response` or `raw` at the top) is our records: a Langfuse export among them is one
 * record that is rejected, naming what it holds.
 */
export function langfuseLayout(paths: Set<string>, bytes: Buffer): LangfuseLayout | null {
  if (paths.has("response") || paths.has("raw")) return null;
  for (const [layout, prefix] of LAYOUTS) {
    if (!paths.has(`${prefix}traceId`) || !paths.has(`${prefix}type`)) continue;
    // The type's value, not only its key: a `type` key is everywhere.
    if (TYPE_VALUE.test(bytes.toString("latin1"))) return layout;
  }
  return null;
}

/**
 * Picks each observation: each top-level value, each element of a top-level array, each of
 * `observations[]` or `data[]`. A download's `trace.observations` (the same observations without
 * their input and output) is not picked.
 */
export function selectLangfuseObservation(layout: LangfuseLayout): (stack: readonly Frame[]) => boolean {
  if (layout === "lines") return (s) => s.length === 0;
  if (layout === "array") return (s) => s.length === 1 && s[0].type === "a";
  return (s) => s.length === 2 && s[0].type === "o" && s[0].key === layout && s[1].type === "a";
}

/** Where each top-level value holds its observations (none one a line: each line is one), for JsonScanner's expect. */
export function langfuseHolds(layout: LangfuseLayout): ScannerOptions["expect"] {
  if (layout === "lines") return undefined;
  if (layout === "array")
    return { holds: (s) => s.length === 1 && s[0].type === "a", what: "array of observations" };
  return { holds: selectLangfuseObservation(layout), what: layout };
}

/** The keys of an object, cut short, to say what a value that is no observation holds. */
function keysOf(v: Record<string, unknown>): string {
  const keys = Object.keys(v);
  if (keys.length === 0) return "nothing";
  return keys.length > 8 ? `${keys.slice(0, 8).join(", ")}, …` : keys.join(", ");
}

/**
 * The metadata as one flat map: its own keys, and the span attributes Langfuse keeps under
 * `attributes` when the observation came over OpenTelemetry (the attributes first).
 */
function metadataAttributes(metadata: unknown): Map<string, unknown> {
  const m = jsonValue(metadata);
  if (!isObject(m)) return new Map();
  const { attributes, ...rest } = m;
  return flattenAttributes({ ...(isObject(attributes) ? attributes : {}), ...rest });
}

/**
 * The model the request named and the one the response named (DESIGN.md, "Model"): the request's
 * (`gen_ai.request.model`, LangChain's `ls_model_name`, the input's `model`), else the
 * observation's `model`, which is then also the response's when it differs.
 */
function modelsOfObservation(
  obs: Record<string, unknown>,
  attrs: Map<string, unknown>,
): { request: string | null; response: string | null } {
  const fromAttrs = modelsOf(attrs);
  const input = jsonValue(obs.input);
  const recorded = typeof obs.model === "string" && obs.model !== "" ? obs.model : null;
  const request =
    fromAttrs.request ??
    str(attrs, "ls_model_name") ??
    (isObject(input) && typeof input.model === "string" && input.model !== "" ? input.model : null);
  let response = fromAttrs.response ?? str(attrs, "ai.response.model");
  if (request === null) return { request: recorded, response };
  if (response === null && recorded !== request) response = recorded;
  return { request, response };
}

/**
 * The Vercel AI SDK's outer calls (`ai.generateText`, `ai.streamText`, ...) repeat the output of
 * the provider calls inside them (`ai.generateText.doGenerate`): the inner one is the generation,
 * the outer one is skipped as a span is (no buffering needed to tell them apart).
 */
const VERCEL_OUTER = new Set(["ai.generateText", "ai.streamText", "ai.generateObject", "ai.streamObject"]);

function isVercelOuter(obs: Record<string, unknown>, attrs: Map<string, unknown>): boolean {
  const op = str(attrs, "ai.operationId") ?? str(attrs, "operation.name");
  return VERCEL_OUTER.has(op ?? (typeof obs.name === "string" ? obs.name : ""));
}

/** One Langfuse observation (parsed from its bytes) as a generation, a skipped observation, or an error. */
export function readLangfuseObservation(obs: unknown): SpanRead {
  if (!isObject(obs)) return { kind: "error", reason: "the observation is not an object" };
  const { id, traceId, type } = obs;
  if (
    typeof id !== "string" ||
    id === "" ||
    typeof traceId !== "string" ||
    traceId === "" ||
    typeof type !== "string"
  )
    return {
      kind: "error",
      reason: `not a Langfuse observation: it needs id, traceId and type (it holds ${keysOf(obs)})`,
    };
  if (type !== "GENERATION") return { kind: "skip" };
  const attrs = metadataAttributes(obs.metadata);
  if (isVercelOuter(obs, attrs)) return { kind: "skip" };
  const out = readLangfuseOutput(obs.output);
  const models = modelsOfObservation(obs, attrs);
  const g: Generation = {
    traceId,
    spanId: id,
    requestModel: models.request,
    responseModel: models.response,
    text: out.text,
    toolCalls: out.toolCalls,
    offeredTools: [...new Set(langfuseToolDefinitions(obs).flatMap((d) => toolNameOf(d) ?? []))],
    style: out.style,
    probeFrom: "the metadata key assumeprobe.probe",
  };
  if (out.payload !== undefined) g.payload = out.payload;
  Object.assign(g, spanTimes(obs.startTime, obs.endTime));
  if (attrs.has("assumeprobe.world_state")) {
    const ws = jsonValue(attrs.get("assumeprobe.world_state"));
    if (typeof ws === "string")
      return { kind: "error", reason: "metadata: assumeprobe.world_state is not JSON" };
    g.worldState = ws;
    g.worldStateFrom = "metadata: assumeprobe.world_state";
  }
  const probe = str(attrs, "assumeprobe.probe");
  if (probe !== null) g.probe = probe;
  return { kind: "generation", generation: g };
}
