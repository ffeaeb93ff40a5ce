import { filterField, type TraceFilter } from "../../lib/traceFilter";
import type { Db } from "../client";
import { currentReviewsOf, humanLabelsOf, type Review } from "./reviews";
import { getRunSummary } from "./runs";
import { matchingTraceIds } from "./traceList";

/** One line of `assumeprobe export` (and of the run page's Export JSONL), in DESIGN.md's key order. */
export interface ExportRow {
  trace_id: number;
  id: string | null;
  run: string;
  probe: string;
  probe_version: number;
  line: number;
  /** The normalized response the scorer read: `{text, tool_calls}`. */
  response: { text: string | null; tool_calls: unknown[] };
  fields: unknown;
  flags: unknown;
  gate: unknown;
  /** A gate-log decision's verdict as the agent's gate recorded it (`gate` is ours on the same state). */
  recorded_gate?: unknown;
  side_effect?: unknown;
  /** The current human label per field. */
  human: Record<string, string>;
}

export function findRunId(db: Db, name: string): number | undefined {
  return db.sqlite.prepare("SELECT id FROM runs WHERE name = ?").pluck().get(name) as number | undefined;
}

/** What an export covers: a run, the page's filter and the field that filter reads. */
export interface ExportScope {
  runId: number;
  run: string;
  filter: TraceFilter;
  field: string;
}

/**
 * The scope of an export of `name` under `filter`, with the field resolved as the run page
 * resolves it; or why there is none: no such run (404), a field the run does not probe (400).
 */
export function exportScope(
  db: Db,
  name: string,
  filter: TraceFilter,
): { ok: true; scope: ExportScope } | { ok: false; status: 400 | 404; error: string } {
  const run = getRunSummary(db, name);
  if (!run) return { ok: false, status: 404, error: `unknown run "${name}"` };
  const names = run.fields.map((f) => f.field);
  const field = filterField(filter, names);
  if (filter.field && field !== filter.field) {
    const known = names.length ? names.join(", ") : "none";
    return {
      ok: false,
      status: 400,
      error: `run "${name}" has no field "${filter.field}" (its fields: ${known}, or * for any)`,
    };
  }
  return { ok: true, scope: { runId: run.id, run: run.name, filter, field } };
}

type Stored = {
  trace_id: number;
  id: string | null;
  probe: string;
  probe_version: number;
  line: number;
  response: string;
  result: string;
  human: string | null;
};

/**
 * The imported human labels, as stored; one over 64 KB (a record may carry 450,000 of them) only
 * for the fields the trace probes, picked by SQLite: parsing it in JavaScript blocked the server
 * for a second per such trace.
 */
const BOUNDED_HUMAN = `CASE WHEN t.human IS NULL OR octet_length(t.human) <= 65536 THEN t.human
  ELSE (SELECT json_group_object(l.key, json_extract(t.human, '$.' || json_quote(l.key)))
        FROM json_each(t.labels) l WHERE json_type(t.human, '$.' || json_quote(l.key)) IS NOT NULL) END`;

const ROWS_SQL = `SELECT t.id AS trace_id, t.ext_id AS id, t.probe_id AS probe, t.probe_version AS probe_version,
    t.line AS line, t.response AS response, t.result AS result, ${BOUNDED_HUMAN} AS human
  FROM traces t WHERE t.id IN (SELECT value FROM json_each(?)) ORDER BY t.id`;

/**
 * Every trace of the scope's filter in ingest order, from stored labels, in batches of at most
 * `batch` rows: the whole filter, through the run page's own filter resolution
 * (db/queries/traceList.ts). No statement stays open between batches: the connection is shared.
 */
export function* exportBatches(db: Db, scope: ExportScope, batch = 200): Generator<ExportRow[]> {
  const stmt = db.sqlite.prepare(ROWS_SQL);
  for (const ids of matchingTraceIds(db, scope.runId, scope.filter, scope.field, batch)) {
    const rows = stmt.all(JSON.stringify(ids)) as Stored[];
    // `human` is the current human labels: each field's current review, else its imported label.
    const reviews = currentReviewsOf(db, ids);
    yield rows.map((r) => toExportRow(r, scope.run, reviews.get(r.trace_id)));
  }
}

function toExportRow(r: Stored, run: string, reviews: Map<string, Review> | undefined): ExportRow {
  const score = JSON.parse(r.result) as {
    fields: Record<string, unknown>;
    flags: unknown;
    gate: unknown;
    recorded_gate?: unknown;
    side_effect?: unknown;
  };
  const response = JSON.parse(r.response) as { text: string | null; tool_calls: unknown[] };
  return {
    trace_id: r.trace_id,
    id: r.id,
    run,
    probe: r.probe,
    probe_version: r.probe_version,
    line: r.line,
    response: { text: response.text, tool_calls: response.tool_calls },
    fields: score.fields,
    flags: score.flags,
    gate: score.gate,
    ...(score.recorded_gate ? { recorded_gate: score.recorded_gate } : {}),
    ...(score.side_effect ? { side_effect: score.side_effect } : {}),
    human: currentHuman(Object.keys(score.fields), reviews, r.human),
  };
}

/**
 * Imported labels as stored (upper-cased, as the filter reads them), with each probed field's
 * current review in its place.
 */
function currentHuman(
  fields: string[],
  reviews: Map<string, Review> | undefined,
  imported: string | null,
): Record<string, string> {
  const parsed: Record<string, string> = {};
  if (imported)
    for (const [field, label] of Object.entries(JSON.parse(imported) as Record<string, unknown>))
      if (typeof label === "string") parsed[field] = label.toUpperCase();
  if (!reviews) return parsed;
  const out = { ...parsed };
  const current = humanLabelsOf(fields, reviews, parsed);
  for (const f of fields) {
    if (current[f]) out[f] = current[f].label;
    else delete out[f];
  }
  return out;
}
