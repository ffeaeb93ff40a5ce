import type { Db } from "../client";
import { currentReviewsOf, humanLabelsOf, type Review } from "./reviews";

export interface ExportRow {
  trace_id: number;
  id: string | null;
  run: string;
  probe: string;
  probe_version: number;
  line: number;
  fields: unknown;
  flags: unknown;
  gate: unknown;
  side_effect?: unknown;
  human: Record<string, string>;
}

export function findRunId(db: Db, name: string): number | undefined {
  return db.sqlite.prepare("SELECT id FROM runs WHERE name = ?").pluck().get(name) as number | undefined;
}

type Stored = {
  trace_id: number;
  id: string | null;
  run: string;
  probe: string;
  probe_version: number;
  line: number;
  result: string;
  human: string | null;
};

/**
 * Every trace of a run in ingest order, from stored labels, in the shape `assumeprobe export`
 * prints. Reads in keyset batches so no statement stays open between rows: the connection is
 * shared with other requests.
 */
export function* exportRunRows(db: Db, runId: number, batch = 2000): Generator<ExportRow> {
  const stmt = db.sqlite.prepare(
    `SELECT t.id AS trace_id, t.ext_id AS id, r.name AS run, t.probe_id AS probe, t.probe_version AS probe_version,
            t.line AS line, t.result AS result, t.human AS human
     FROM traces t JOIN runs r ON r.id = t.run_id WHERE t.run_id = ? AND t.id > ? ORDER BY t.id LIMIT ?`,
  );
  let after = 0;
  for (;;) {
    const rows = stmt.all(runId, after, batch) as Stored[];
    if (rows.length === 0) return;
    // `human` is the current human labels: each field's current review, else its imported label.
    const reviews = currentReviewsOf(
      db,
      rows.map((r) => r.trace_id),
    );
    for (const r of rows) yield toExportRow(r, reviews.get(r.trace_id));
    after = rows[rows.length - 1].trace_id;
  }
}

function toExportRow(r: Stored, reviews: Map<string, Review> | undefined): ExportRow {
  const score = JSON.parse(r.result) as {
    fields: Record<string, unknown>;
    flags: unknown;
    gate: unknown;
    side_effect?: unknown;
  };
  const row: ExportRow = {
    trace_id: r.trace_id,
    id: r.id,
    run: r.run,
    probe: r.probe,
    probe_version: r.probe_version,
    line: r.line,
    fields: score.fields,
    flags: score.flags,
    gate: score.gate,
    human: currentHuman(Object.keys(score.fields), reviews, r.human),
  };
  if (!score.side_effect) return row;
  const { human, ...rest } = row;
  return { ...rest, side_effect: score.side_effect, human };
}

/** Imported labels as stored, with each probed field's current review in its place. */
function currentHuman(
  fields: string[],
  reviews: Map<string, Review> | undefined,
  imported: string | null,
): Record<string, string> {
  const parsed = imported ? (JSON.parse(imported) as Record<string, string>) : {};
  if (!reviews) return parsed;
  const out = { ...parsed };
  const current = humanLabelsOf(fields, reviews, parsed);
  for (const f of fields) {
    if (current[f]) out[f] = current[f].label;
    else delete out[f];
  }
  return out;
}
