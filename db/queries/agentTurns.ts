import {
  AGENT_STEP,
  countedGenerations,
  isAgentStep,
  TURN_FORMS,
  type TurnGeneration,
} from "../../lib/ingest/agentTurns";
import { probeTools } from "../../lib/ingest/spanRecord";
import { MAX_SIGNED_TRACE_ID, tagSignature } from "../../lib/ingest/tagSignature";
import { tag } from "../../lib/ingest/tags";
import type { Db } from "../client";
import { getProbe, getProbeVersion } from "./probes";
import { findTagId, tagId } from "./tags";

/**
 * Agent turns in the store (lib/ingest/agentTurns.ts holds the rule). After each ingest batch,
 * in its transaction, every turn the batch added a generation to is decided again, whichever
 * batch or file brought its generations: a generation that stops or starts counting gains or
 * loses `agent_step` (its score, its column, its tag row, its run's count).
 *
 * The choice reads only the turn's generations that count now (one per probe) and the batch's
 * new ones (which count until decided): the first caller of the probe's tool among all of them
 * is the first among the counted one and the new ones, and with no caller so is the last. So a
 * turn of a million generations costs each batch a few rows, not a million.
 */

/** A turn an ingest batch touched: its run and its key (turnOf). */
export interface TouchedTurn {
  runId: number;
  key: string;
}

/** The first string after every string that starts with `prefix`. */
function prefixEnd(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

interface TurnRow {
  id: number;
  probeId: string;
  probeVersion: number;
  extId: string;
  startedAt: string | null;
  response: string;
  result: string;
}

function callsOf(response: string): string[] {
  try {
    const calls = (JSON.parse(response) as { tool_calls?: { name?: unknown }[] }).tool_calls ?? [];
    return calls.flatMap((c) => (typeof c?.name === "string" ? [c.name] : []));
  } catch {
    return [];
  }
}

function withFlag(result: string, on: boolean): string {
  const score = JSON.parse(result) as { flags: string[] };
  const flags = score.flags.filter((f) => f !== AGENT_STEP);
  if (on) flags.push(AGENT_STEP);
  return JSON.stringify({ ...score, flags });
}

/**
 * A turn's counted generations (run, ext_id from, ext_id before): its form list is the turn
 * index's condition word for word, so SQLite reads the index (a partial index serves a query
 * whose WHERE holds its condition).
 */
export const TURN_ROWS_SQL = `SELECT id, probe_id AS probeId, probe_version AS probeVersion, ext_id AS extId,
       started_at AS startedAt, response, result
     FROM traces WHERE run_id = ? AND form IN (${TURN_FORMS.map((f) => `'${f}'`).join(", ")}) AND agent_step = 0
       AND ext_id >= ? AND ext_id < ?`;

/** Decides the touched turns again; call inside the writing transaction. Returns the traces whose flag changed. */
export function reevaluateTurns(db: Db, turns: Iterable<TouchedTurn>): number {
  const s = db.sqlite;
  const rowsOf = s.prepare(TURN_ROWS_SQL);
  const setResult = s.prepare("UPDATE traces SET result = ?, agent_step = ? WHERE id = ?");
  const addTag = s.prepare(
    "INSERT OR IGNORE INTO trace_tags(run_id, tag_id, trace_id, sig) VALUES (?, ?, ?, ?)",
  );
  const dropTag = s.prepare("DELETE FROM trace_tags WHERE run_id = ? AND tag_id = ? AND trace_id = ?");
  // A trace's tag rows, found among the tags its run and probe count (a seek per tag, not a
  // scan of the run), so its signature can be made again with the flag or without it.
  const tagsOf = s.prepare(
    `SELECT tn.name FROM run_counts rc JOIN tag_names tn ON tn.id = rc.tag_id
     JOIN trace_tags tt ON tt.run_id = rc.run_id AND tt.tag_id = rc.tag_id AND tt.trace_id = ?
     WHERE rc.run_id = ? AND rc.probe_id = ?`,
  );
  const signRows = s.prepare(
    `UPDATE trace_tags SET sig = ? WHERE run_id = ? AND trace_id = ?
       AND tag_id IN (SELECT tag_id FROM run_counts WHERE run_id = ? AND probe_id = ?)`,
  );
  const addCount = s.prepare(`INSERT INTO run_counts(run_id, probe_id, tag_id, n) VALUES (?, ?, ?, ?)
    ON CONFLICT(run_id, probe_id, tag_id) DO UPDATE SET n = n + excluded.n`);
  const dropEmptyCount = s.prepare(
    "DELETE FROM run_counts WHERE run_id = ? AND probe_id = ? AND tag_id = ? AND n <= 0",
  );
  const stepTag = tag.flag(AGENT_STEP);
  const tools = new Map<string, string[]>();
  const toolsOf = (r: TurnRow) => {
    const k = `${r.probeId}\u0000${r.probeVersion}`;
    let t = tools.get(k);
    if (!t) {
      const p = getProbeVersion(db, r.probeId, r.probeVersion) ?? getProbe(db, r.probeId)?.probe;
      t = p ? probeTools(p) : [];
      tools.set(k, t);
    }
    return t;
  };
  let changed = 0;
  for (const { runId, key } of turns) {
    const rows = rowsOf.all(runId, key, prefixEnd(key)) as TurnRow[];
    if (rows.length === 0) continue;
    const gens: TurnGeneration[] = rows.map((r) => ({
      id: r.id,
      probeId: r.probeId,
      spanId: r.extId.slice(key.length),
      startedAt: r.startedAt,
      calls: callsOf(r.response),
      probeTools: toolsOf(r),
    }));
    const counted = countedGenerations(gens);
    for (const r of rows) {
      const step = !counted.has(r.id);
      if (step === isAgentStep(r.result)) continue;
      changed++;
      const id = tagId(db, stepTag);
      setResult.run(withFlag(r.result, step), step ? 1 : 0, r.id);
      const names = (tagsOf.pluck().all(r.id, runId, r.probeId) as string[]).filter((n) => n !== stepTag);
      if (step) names.push(stepTag);
      const sig = r.id > MAX_SIGNED_TRACE_ID ? -1 : tagSignature(names);
      if (step) {
        addTag.run(runId, id, r.id, sig);
        addCount.run(runId, r.probeId, id, 1);
      } else {
        dropTag.run(runId, id, r.id);
        addCount.run(runId, r.probeId, id, -1);
        dropEmptyCount.run(runId, r.probeId, id);
      }
      signRows.run(sig, runId, r.id, runId, r.probeId);
    }
  }
  return changed;
}

/**
 * What a run's agent steps add to its kept counts, per probe and tag (the flag itself left
 * out): subtracted, the counts and rates are those of the counted generations alone. Reads only
 * the agent steps' tag rows.
 */
export function agentStepCounts(
  db: Db,
  runIds: number[],
  probe?: string,
): { runId: number; probe: string; tag: string; n: number }[] {
  const stepId = findTagId(db, tag.flag(AGENT_STEP));
  if (stepId === undefined || runIds.length === 0) return [];
  return db.sqlite
    .prepare(
      `SELECT s.run_id AS runId, t.probe_id AS probe, tn.name AS tag, count(*) AS n
       FROM trace_tags s
       JOIN traces t ON t.id = s.trace_id
       JOIN run_counts rc ON rc.run_id = s.run_id AND rc.probe_id = t.probe_id AND rc.tag_id <> s.tag_id
       JOIN trace_tags tt ON tt.run_id = s.run_id AND tt.tag_id = rc.tag_id AND tt.trace_id = s.trace_id
       JOIN tag_names tn ON tn.id = tt.tag_id
       WHERE s.run_id IN (SELECT value FROM json_each(?)) AND s.tag_id = ?${probe ? " AND t.probe_id = ?" : ""}
       GROUP BY s.run_id, t.probe_id, tt.tag_id`,
    )
    .all(...(probe ? [JSON.stringify(runIds), stepId, probe] : [JSON.stringify(runIds), stepId])) as {
    runId: number;
    probe: string;
    tag: string;
    n: number;
  }[];
}
