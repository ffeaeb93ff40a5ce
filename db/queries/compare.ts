import type { Db } from "../client";

export interface ChangedTrace {
  extId: string;
  probeId: string;
  aId: number;
  bId: number;
  aLabels: Record<string, string>;
  bLabels: Record<string, string>;
}

/** One cell of a transition matrix: paired traces whose `field` was `from` before and `to` after. */
export interface PairCell {
  field: string;
  from: string;
  to: string;
}

const PAIRS = `FROM traces a JOIN traces b ON b.run_id = ? AND b.identity = a.identity
  WHERE a.run_id = ? AND a.ext_id IS NOT NULL AND b.probe_id = a.probe_id`;
const CELL = ` AND EXISTS (SELECT 1 FROM json_each(a.labels) x WHERE x.key = ? AND x.value = ?)
  AND EXISTS (SELECT 1 FROM json_each(b.labels) y WHERE y.key = ? AND y.value = ?)`;

/**
 * Paired traces (the same record id and probe in both runs) whose labels differ, or, for a
 * matrix cell, the pairs in that cell (changed or not). Keyset pages by the before trace's id
 * (`after`); `total` counts them all and `pairs` every pair of the two runs.
 */
export function changedTraces(
  db: Db,
  aRunId: number,
  bRunId: number,
  opts: { limit?: number; after?: number; before?: number; cell?: PairCell } = {},
): {
  pairs: number;
  total: number;
  changed: ChangedTrace[];
  nextAfter: number | null;
  prevBefore: number | null;
  /** How many listed traces come before this page (its first row is number start + 1). */
  start: number;
} {
  const limit = opts.limit ?? 50;
  const pairs = db.sqlite.prepare(`SELECT count(*) ${PAIRS}`).pluck().get(bRunId, aRunId) as number;
  const where = opts.cell ? CELL : " AND a.labels <> b.labels";
  const whereArgs = opts.cell ? [opts.cell.field, opts.cell.from, opts.cell.field, opts.cell.to] : [];
  const total =
    pairs === 0
      ? 0
      : (db.sqlite
          .prepare(`SELECT count(*) ${PAIRS}${where}`)
          .pluck()
          .get(bRunId, aRunId, ...whereArgs) as number);
  const back = opts.before !== undefined;
  const rows = db.sqlite
    .prepare(
      `SELECT a.ext_id AS extId, a.probe_id AS probeId, a.id AS aId, b.id AS bId, a.labels AS aLabels, b.labels AS bLabels
       ${PAIRS}${where} AND a.id ${back ? "<" : ">"} ? ORDER BY a.id ${back ? "DESC" : "ASC"} LIMIT ?`,
    )
    .all(bRunId, aRunId, ...whereArgs, back ? opts.before : (opts.after ?? 0), limit + 1) as {
    extId: string;
    probeId: string;
    aId: number;
    bId: number;
    aLabels: string;
    bLabels: string;
  }[];
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  if (back) page.reverse();
  const last = page.at(-1)?.aId;
  const first = page[0]?.aId;
  const start =
    first === undefined || (!opts.after && !back)
      ? 0
      : (db.sqlite
          .prepare(`SELECT count(*) ${PAIRS}${where} AND a.id < ?`)
          .pluck()
          .get(bRunId, aRunId, ...whereArgs, first) as number);
  return {
    pairs,
    total,
    start,
    changed: page.map((r) => ({ ...r, aLabels: JSON.parse(r.aLabels), bLabels: JSON.parse(r.bLabels) })),
    // Backwards, the page after is the one we came from; forwards, a page before exists past the first.
    nextAfter: back ? (last ?? null) : more && last !== undefined ? last : null,
    prevBefore: back
      ? more && first !== undefined
        ? first
        : null
      : opts.after && first !== undefined
        ? first
        : null,
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
