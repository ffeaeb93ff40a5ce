import { isInspectGeneration } from "../formats/inspect";
import { readSpan, resolveSpanProbe, type SpanForm, spanParts } from "../ingest/spanRecord";
import { isObject } from "../isObject";
import type { Label, Probe } from "./schema";
import { scoreTrace } from "./score";

/** A record an ingest rejected, as ingest_errors keeps it. */
export interface RejectedRecord {
  id: number;
  raw: string;
}

export interface WhatIf {
  /** Rejected records the probe was tried against. */
  tried: number;
  /** Of them, how many the probe would now match. */
  matched: number;
  /** The ids of those records. */
  matchedIds: number[];
  /** Per probed field, how many matched records would get each label. */
  labels: Record<string, Partial<Record<Label, number>>>;
}

/**
 * What a new probe would do to rejected records (DESIGN.md, "Probe resolution"): each span is
 * resolved as the ingest resolves it, among the stored probes and this one; those that resolve
 * to this probe are scored by the one scorer (lib/probe/score.ts). Records in our format match
 * when they name the probe's id.
 */
export function rejectedWhatIf(probe: Probe, stored: Probe[], records: RejectedRecord[]): WhatIf {
  const all = [...stored.filter((p) => p.id !== probe.id), probe];
  const out: WhatIf = { tried: 0, matched: 0, matchedIds: [], labels: {} };
  for (const f of probe.fields ?? []) out.labels[f] = {};
  for (const r of records) {
    let value: unknown;
    try {
      value = JSON.parse(r.raw);
    } catch {
      continue;
    }
    out.tried++;
    const form = spanFormOf(value);
    if (form === null) {
      const named = typeof value === "object" && value !== null && (value as { probe?: unknown }).probe;
      if (named === probe.id) {
        out.matched++;
        out.matchedIds.push(r.id);
      }
      continue;
    }
    const read = readSpan(form, value);
    if (read.kind !== "generation") continue;
    const resolved = resolveSpanProbe(
      read.generation,
      undefined,
      (id) => all.find((p) => p.id === id),
      () => all,
    );
    if ("error" in resolved || resolved.id !== probe.id) continue;
    const parts = spanParts(read.generation);
    if ("error" in parts) continue;
    out.matched++;
    out.matchedIds.push(r.id);
    const score = scoreTrace({ response: parts.response, world_state: parts.world_state }, probe);
    for (const [field, s] of Object.entries(score.fields)) {
      const counts = out.labels[field] ?? {};
      out.labels[field] = counts;
      counts[s.label] = (counts[s.label] ?? 0) + 1;
    }
  }
  return out;
}

/** The span format of a record's value, told by its own fields (an OTLP span, a Phoenix span, an Inspect generation record, a Langfuse observation); null for our records. */
export function spanFormOf(value: unknown): SpanForm | null {
  if (!isObject(value)) return null;
  if (isInspectGeneration(value)) return "inspect";
  if (isObject(value.context) && value.span_kind !== undefined) return "phoenix";
  if (typeof value.traceId === "string" && typeof value.id === "string" && typeof value.type === "string")
    return "langfuse";
  if ((value.spanId ?? value.span_id) !== undefined && (value.traceId ?? value.trace_id) !== undefined)
    return "otlp";
  return null;
}
