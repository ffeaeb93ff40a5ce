import { type Rescored, type StoredLabels, type StoredTrace, storedTags } from "../../../lib/ingest/rescore";
import { MAX_SIGNED_TRACE_ID, tagSignature } from "../../../lib/ingest/tagSignature";
import { type CurrentReviewLabels, tag } from "../../../lib/ingest/tags";
import type { TraceScore } from "../../../lib/probe/score";
import type { Db } from "../../client";
import { ORIGINAL_BYTES, ORIGINAL_OF } from "../originals";
import { findTagId, tagId } from "../tags";

/**
 * The writes of a re-score batch (db/queries/rescore.ts runs them inside its transaction): a
 * changed trace is rewritten row by row (they are few); unchanged traces whose signatures are
 * stale are re-signed with one statement per tag for the whole batch.
 */

export interface TraceRow extends StoredTrace, StoredLabels {
  probeVersion: number;
  lexiconVersion: number;
}

export type Ok = Extract<Rescored, { ok: true }>;

/** Per (probe, tag id): how the batch moved the run's kept counts. */
export type CountMoves = Map<string, number>;

/**
 * Per (tag id, signature): the rewritten traces whose rows of that tag take that signature.
 * `always`: re-sign kept rows even when the trace's signature did not change (after a layout
 * reset their rows may still read -1: a parser re-score gives them their signature).
 */
export interface SignGroups {
  always: boolean;
  groups: Map<string, { tag: number; sig: number; ids: number[] }>;
}

export function rescoreStatements(db: Db) {
  const s = db.sqlite;
  return {
    window: s.prepare(
      `SELECT id, ${ORIGINAL_BYTES} AS bytes FROM traces WHERE run_id = ? AND id > ? ORDER BY id LIMIT ?`,
    ),
    traces: s.prepare(
      `SELECT id, probe_id AS probeId, probe_version AS probeVersion, lexicon_version AS lexiconVersion, form,
        ext_id AS extId, model, ${ORIGINAL_OF} AS original,
        result, response, recorded, human FROM traces WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`,
    ),
    total: s.prepare("SELECT count(*) FROM traces WHERE run_id = ?").pluck(),
    updateTrace: s.prepare(
      "UPDATE traces SET result = ?, labels = ?, gate = ?, response = ?, probe_version = ?, lexicon_version = ? WHERE id = ?",
    ),
    setVersions: s.prepare(
      "UPDATE traces SET probe_version = ?, lexicon_version = ? WHERE id IN (SELECT value FROM json_each(?))",
    ),
    deleteSearch: s.prepare("DELETE FROM trace_search WHERE rowid = ?"),
    insertSearch: s.prepare("INSERT INTO trace_search(rowid, body) VALUES (?, ?)"),
    storedSigs: s.prepare(
      `SELECT trace_id AS id, sig FROM trace_tags WHERE run_id = ? AND tag_id = ?
        AND trace_id IN (SELECT value FROM json_each(?))`,
    ),
    deleteTag: s.prepare("DELETE FROM trace_tags WHERE run_id = ? AND tag_id = ? AND trace_id = ?"),
    insertTag: s.prepare(
      "INSERT OR IGNORE INTO trace_tags(run_id, tag_id, trace_id, sig) VALUES (?, ?, ?, ?)",
    ),
    // One signature for a list of traces: an IN list is a seek per trace (an UPDATE ... FROM a
    // list of pairs scans the tag's whole range for each pair).
    signTagRows: s.prepare(
      `UPDATE trace_tags SET sig = ? WHERE run_id = ? AND tag_id = ?
        AND trace_id IN (SELECT value FROM json_each(?))`,
    ),
    signStaleTagRows: s.prepare(
      `UPDATE trace_tags SET sig = ? WHERE run_id = ? AND tag_id = ?
        AND trace_id IN (SELECT value FROM json_each(?)) AND sig <> ?`,
    ),
    addCount: s.prepare(`INSERT INTO run_counts(run_id, probe_id, tag_id, n) VALUES (?, ?, ?, ?)
      ON CONFLICT(run_id, probe_id, tag_id) DO UPDATE SET n = n + excluded.n`),
    dropEmptyCount: s.prepare(
      "DELETE FROM run_counts WHERE run_id = ? AND probe_id = ? AND tag_id = ? AND n <= 0",
    ),
    addMismatch: s.prepare(
      "UPDATE runs SET mismatch_count = mismatch_count + ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?",
    ),
  };
}

export type RescoreStatements = ReturnType<typeof rescoreStatements>;

/** The signature a trace's tag rows carry: none (-1) for ids too large to pack (see packTagRow). */
const rowSig = (traceId: number, sig: number) => (traceId > MAX_SIGNED_TRACE_ID ? -1 : sig);

/**
 * Rewrites one changed trace. Its old tags are recomputed from the stored result (tags are a pure
 * function of the score, the imported human labels and the recorded ones): rows for tags it lost
 * go, rows for tags it gained come, the rest take the new signature; counts move by what changed.
 */
export function rewriteTrace(
  db: Db,
  q: RescoreStatements,
  runId: number,
  t: TraceRow,
  r: Ok,
  versions: { probe: number; lexicon: number },
  counts: CountMoves,
  before: TraceScore,
  reviews: CurrentReviewLabels | undefined,
  signs: SignGroups,
): void {
  const oldTags = new Set(storedTags(t, before, reviews, t.response));
  const newTags = new Set(r.scored.tags);
  const sig = rowSig(t.id, r.scored.sig);
  // The rows of tags it keeps carry its old signature: they need the new one only when it differs
  // (rows still at -1 after a layout reset are checked exactly anyway, and re-signed by the
  // re-score that reset queues).
  const resign = signs.always || rowSig(t.id, tagSignature([...oldTags])) !== sig;
  const count = (id: number, d: number) => {
    const key = `${t.probeId}\u0000${id}`;
    counts.set(key, (counts.get(key) ?? 0) + d);
  };
  for (const name of oldTags) {
    if (newTags.has(name)) continue;
    const id = findTagId(db, name);
    if (id !== undefined && q.deleteTag.run(runId, id, t.id).changes > 0) count(id, -1);
  }
  for (const name of newTags) {
    const id = tagId(db, name);
    // A tag it keeps: its row takes the new signature with the batch's others (applySigns).
    if (oldTags.has(name) || q.insertTag.run(runId, id, t.id, sig).changes === 0) {
      if (!resign) continue;
      const key = `${id}:${sig}`;
      const g = signs.groups.get(key);
      if (g) g.ids.push(t.id);
      else signs.groups.set(key, { tag: id, sig, ids: [t.id] });
    } else count(id, 1);
  }
  const s = r.scored;
  q.updateTrace.run(s.result, s.labels, s.gate, s.response, versions.probe, versions.lexicon, t.id);
  if (r.responseChanged) {
    q.deleteSearch.run(t.id);
    if (s.search) q.insertSearch.run(t.id, s.search);
  }
  const mismatch = Number(s.modelMismatch) - Number(before.flags.includes("model_mismatch"));
  if (mismatch !== 0) q.addMismatch.run(mismatch, runId);
}

/**
 * Gives unchanged traces whose tag rows carry another signature (after a layout change reset them
 * to -1) their current one. Every row of a trace carries the same signature, so its probe tag's
 * row tells; the rows are then updated with one statement per tag and signature for the whole
 * batch (a batch's traces share few signatures).
 * Returns how many traces were re-signed.
 */
export function resignTraces(
  db: Db,
  q: RescoreStatements,
  runId: number,
  unchanged: [TraceRow, Ok][],
): number {
  const byProbe = new Map<string, [TraceRow, Ok][]>();
  for (const pair of unchanged) {
    const list = byProbe.get(pair[0].probeId);
    if (list) list.push(pair);
    else byProbe.set(pair[0].probeId, [pair]);
  }
  /** Trace ids by tag id and signature. */
  const groups = new Map<string, { tag: number; sig: number; ids: number[] }>();
  let resigned = 0;
  for (const [probeId, pairs] of byProbe) {
    const probeTag = findTagId(db, tag.probe(probeId));
    if (probeTag === undefined) continue;
    const ids = JSON.stringify(pairs.map(([t]) => t.id));
    const stored = new Map(
      (q.storedSigs.all(runId, probeTag, ids) as { id: number; sig: number }[]).map((r) => [r.id, r.sig]),
    );
    for (const [t, r] of pairs) {
      const sig = rowSig(t.id, r.scored.sig);
      const have = stored.get(t.id);
      if (have === undefined || have === sig) continue;
      resigned++;
      for (const name of r.scored.tags) {
        const id = findTagId(db, name);
        if (id === undefined) continue;
        const key = `${id}:${sig}`;
        const g = groups.get(key);
        if (g) g.ids.push(t.id);
        else groups.set(key, { tag: id, sig, ids: [t.id] });
      }
    }
  }
  for (const g of groups.values()) q.signTagRows.run(g.sig, runId, g.tag, JSON.stringify(g.ids));
  return resigned;
}

/** Gives the kept tag rows of a batch's rewritten traces their new signatures: one statement per (tag, signature). */
export function applySigns(q: RescoreStatements, runId: number, signs: SignGroups): void {
  for (const g of signs.groups.values())
    q.signStaleTagRows.run(g.sig, runId, g.tag, JSON.stringify(g.ids), g.sig);
}

/** Applies a batch's count moves to the run's kept counts; a count that reaches 0 goes. */
export function applyCounts(q: RescoreStatements, runId: number, counts: CountMoves): void {
  for (const [key, n] of counts) {
    if (n === 0) continue;
    const [probeId, id] = key.split("\u0000");
    q.addCount.run(runId, probeId, Number(id), n);
    if (n < 0) q.dropEmptyCount.run(runId, probeId, Number(id));
  }
}
