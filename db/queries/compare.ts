import type { Db } from "../client";

export interface ChangedTrace {
  extId: string;
  probeId: string;
  aId: number;
  bId: number;
  aLabels: Record<string, string>;
  bLabels: Record<string, string>;
}

/**
 * Traces with the same record id (and probe) in both runs whose labels differ. Pairs are found
 * through the identity index, which for records with an id is the id itself.
 */
export function changedTraces(
  db: Db,
  aRunId: number,
  bRunId: number,
  limit = 200,
): { pairs: number; changed: ChangedTrace[] } {
  const pairs = db.sqlite
    .prepare(
      `SELECT count(*) FROM traces a JOIN traces b ON b.run_id = ? AND b.identity = a.identity
       WHERE a.run_id = ? AND a.ext_id IS NOT NULL AND b.probe_id = a.probe_id`,
    )
    .pluck()
    .get(bRunId, aRunId) as number;
  const rows = db.sqlite
    .prepare(
      `SELECT a.ext_id AS extId, a.probe_id AS probeId, a.id AS aId, b.id AS bId, a.labels AS aLabels, b.labels AS bLabels
       FROM traces a JOIN traces b ON b.run_id = ? AND b.identity = a.identity
       WHERE a.run_id = ? AND a.ext_id IS NOT NULL AND b.probe_id = a.probe_id AND a.labels <> b.labels
       ORDER BY a.id LIMIT ?`,
    )
    .all(bRunId, aRunId, limit) as {
    extId: string;
    probeId: string;
    aId: number;
    bId: number;
    aLabels: string;
    bLabels: string;
  }[];
  return {
    pairs,
    changed: rows.map((r) => ({ ...r, aLabels: JSON.parse(r.aLabels), bLabels: JSON.parse(r.bLabels) })),
  };
}

/** Per field, how paired traces moved: transitions[field][before][after] = count. */
export function labelTransitions(
  db: Db,
  aRunId: number,
  bRunId: number,
): Record<string, Record<string, Record<string, number>>> {
  const rows = db.sqlite
    .prepare(
      `SELECT a.labels AS aLabels, b.labels AS bLabels, count(*) AS n
       FROM traces a JOIN traces b ON b.run_id = ? AND b.identity = a.identity
       WHERE a.run_id = ? AND a.ext_id IS NOT NULL AND b.probe_id = a.probe_id
       GROUP BY a.labels, b.labels`,
    )
    .all(bRunId, aRunId) as { aLabels: string; bLabels: string; n: number }[];
  const out: Record<string, Record<string, Record<string, number>>> = {};
  for (const r of rows) {
    const a = JSON.parse(r.aLabels) as Record<string, string>;
    const b = JSON.parse(r.bLabels) as Record<string, string>;
    for (const [field, before] of Object.entries(a)) {
      const after = b[field];
      if (after === undefined) continue;
      out[field] ??= {};
      out[field][before] ??= {};
      out[field][before][after] = (out[field][before][after] ?? 0) + r.n;
    }
  }
  return out;
}
