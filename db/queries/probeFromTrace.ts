/**
 * Storage for a probe made from a real trace (issue 23): the rejected records of an ingest that
 * no probe matched (ingest_errors keeps their text), a stored trace's original record, saving
 * the probe through the probe write path, and re-ingesting the records it now matches through
 * the ingest write path (an upload's ingest, on its own thread).
 */
import type { IngestSummary } from "../../lib/ingest/pipeline";
import { sourceName } from "../../lib/ingest/readSource";
import { DEFAULT_PROBE_ID } from "../../lib/probe/builtin";
import { spanFormOf } from "../../lib/probe/rejectedWhatIf";
import type { Probe } from "../../lib/probe/schema";
import type { Db } from "../client";
import { ingestUpload } from "./ingestUpload";
import { ORIGINAL_OF } from "./originals";
import { type SavedProbe, saveProbe } from "./probes";

/** A rejected record as ingest_errors keeps it, with the ingest that read it. */
export interface RejectedRow {
  id: number;
  batchId: number | null;
  file: string;
  source: string;
  line: number;
  reason: string;
  raw: string;
}

/** The most rejected records one what-if reads. */
export const WHAT_IF_LIMIT = 5000;

export function getRejected(db: Db, id: number): RejectedRow | undefined {
  return db.sqlite
    .prepare(
      "SELECT id, batch_id AS batchId, file, source, line, reason, raw FROM ingest_errors WHERE id = ?",
    )
    .get(id) as RejectedRow | undefined;
}

/**
 * The records an ingest rejected because no probe matched (DESIGN.md, "Probe resolution": the
 * reason names the candidates, or an unknown probe), in reading order.
 */
export function rejectedUnmatched(db: Db, batchId: number, limit = WHAT_IF_LIMIT): RejectedRow[] {
  return db.sqlite
    .prepare(
      `SELECT e.id, l.batch_id AS batchId, l.file, e.source, l.line, l.reason, e.raw
       FROM ingest_error_batches l JOIN ingest_errors e ON e.id = l.error_id
       WHERE l.batch_id = ? AND (l.reason LIKE '%no probe offers%' OR l.reason LIKE '%several probes offer%' OR l.reason LIKE '%unknown probe%')
       ORDER BY l.file, l.line, l.error_id LIMIT ?`,
    )
    .all(batchId, limit) as RejectedRow[];
}

/** How many records an ingest rejected for want of a probe (the upload summary's offer). */
export function countRejectedUnmatched(db: Db, batchId: number): number {
  return (
    db.sqlite
      .prepare(
        `SELECT count(*) AS n FROM ingest_error_batches l
         WHERE l.batch_id = ? AND (l.reason LIKE '%no probe offers%' OR l.reason LIKE '%several probes offer%' OR l.reason LIKE '%unknown probe%')`,
      )
      .get(batchId) as { n: number }
  ).n;
}

/** A stored trace's original record, as text, and its ingest. */
export function traceOriginal(db: Db, traceId: number): { text: string; batchId: number | null } | undefined {
  const r = db.sqlite
    .prepare(`SELECT ${ORIGINAL_OF} AS original, batch_id AS batchId FROM traces WHERE id = ?`)
    .get(traceId) as { original: string | Buffer; batchId: number | null } | undefined;
  return r
    ? { text: typeof r.original === "string" ? r.original : r.original.toString("utf8"), batchId: r.batchId }
    : undefined;
}

/** Saves a probe made in the browser: a new probe, or a new version of an existing id. */
export function saveMadeProbe(db: Db, probe: Probe, who: string): SavedProbe {
  return saveProbe(db, probe, `made:${who}`);
}

/**
 * Re-ingests rejected records through the upload's ingest: spans go back as one OTLP
 * `TracesData` a line (their identity is their trace and span ids), our records as they were,
 * under their source's name, so they land in the run they would have landed in.
 */
export async function reingestRejected(
  db: Db,
  rows: RejectedRow[],
): Promise<{ batchIds: number[]; summaries: IngestSummary[]; failed?: string }> {
  const groups = new Map<string, { file: string; lines: string[] }>();
  for (const r of rows) {
    let value: unknown;
    try {
      value = JSON.parse(r.raw);
    } catch {
      continue;
    }
    const form = spanFormOf(value);
    const line =
      form === "otlp" ? JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [value] }] }] }) : r.raw;
    const key = `${form ?? "ours"}\u0000${r.file}`;
    const g = groups.get(key) ?? { file: r.file, lines: [] };
    g.lines.push(line);
    groups.set(key, g);
  }
  const out: { batchIds: number[]; summaries: IngestSummary[]; failed?: string } = {
    batchIds: [],
    summaries: [],
  };
  for (const g of groups.values()) {
    const bytes = new TextEncoder().encode(`${g.lines.join("\n")}\n`);
    const body = (async function* () {
      yield bytes;
    })();
    const result = await ingestUpload(db, body, {
      file: g.file,
      name: sourceName(g.file),
      options: { probe: DEFAULT_PROBE_ID, probeGiven: false, format: "auto", origin: "upload" },
    });
    if ("failed" in result) return { ...out, failed: result.failed };
    if (result.batchId !== null) out.batchIds.push(result.batchId);
    out.summaries.push(result.summary);
  }
  return out;
}
