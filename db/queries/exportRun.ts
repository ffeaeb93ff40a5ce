import type { Db } from "../client";

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
 * The imported human labels, as stored; one over 64 KB (a record may carry 450,000 of them) only
 * for the fields the trace probes, picked by SQLite: parsing it in JavaScript blocked the server
 * for a second per such trace.
 */
const BOUNDED_HUMAN = `CASE WHEN t.human IS NULL OR octet_length(t.human) <= 65536 THEN t.human
  ELSE (SELECT json_group_object(l.key, json_extract(t.human, '$.' || json_quote(l.key)))
        FROM json_each(t.labels) l WHERE json_type(t.human, '$.' || json_quote(l.key)) IS NOT NULL) END`;

/**
 * Every trace of a run in ingest order, from stored labels, in the shape `assumeprobe export`
 * prints. Reads in keyset batches so no statement stays open between rows: the connection is
 * shared with other requests.
 */
export function* exportRunRows(db: Db, runId: number, batch = 2000): Generator<ExportRow> {
  const stmt = db.sqlite.prepare(
    `SELECT t.id AS trace_id, t.ext_id AS id, r.name AS run, t.probe_id AS probe, t.probe_version AS probe_version,
            t.line AS line, t.result AS result, ${BOUNDED_HUMAN} AS human
     FROM traces t JOIN runs r ON r.id = t.run_id WHERE t.run_id = ? AND t.id > ? ORDER BY t.id LIMIT ?`,
  );
  let after = 0;
  for (;;) {
    const rows = stmt.all(runId, after, batch) as Stored[];
    if (rows.length === 0) return;
    for (const r of rows) yield toExportRow(r);
    after = rows[rows.length - 1].trace_id;
  }
}

function toExportRow(r: Stored): ExportRow {
  const score = JSON.parse(r.result) as {
    fields: unknown;
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
    human: r.human ? JSON.parse(r.human) : {},
  };
  if (!score.side_effect) return row;
  const { human, ...rest } = row;
  return { ...rest, side_effect: score.side_effect, human };
}
