/**
 * Tags traces stored before the review queue and the agreement counts existed (migration 0007
 * lists their runs in `tag_backfill`): each such trace gains the `q:`, `qp:`, `qd:` and `hp:`
 * tags its stored score, response text, imported and recorded labels and current reviews give,
 * with the run's counts. Short IMMEDIATE batches, resumable from `after_id`; a trace that already
 * carries a tag (a review rewrote it meanwhile) is left as it is, so a batch may run twice.
 */
import { parseTag, type TagKind, traceTags } from "../../lib/ingest/tags";
import type { TraceScore } from "../../lib/probe/score";
import type { Db } from "../client";
import { writeSync } from "../write";
import { currentReviewsOf } from "./reviews";
import { findTagId, tagId } from "./tags";

const BACKFILLED: ReadonlySet<TagKind> = new Set(["humanPair", "queue", "queueProbe", "queueDone"]);

export interface BackfillState {
  /** Runs still to tag. */
  runs: number;
  /** Traces still to tag (at most; a run's rows are counted by id range). */
  traces: number;
}

export function backfillState(db: Db): BackfillState {
  const row = db.sqlite
    .prepare(
      `SELECT count(*) AS runs, coalesce(sum((SELECT count(*) FROM traces t
         WHERE t.run_id = b.run_id AND t.id > b.after_id AND t.id <= b.last_id)), 0) AS traces
       FROM tag_backfill b`,
    )
    .get() as BackfillState;
  return row;
}

/** Whether any run still waits to be tagged (one row look-up: pages say so while it does). */
export function backfillPending(db: Db): boolean {
  return db.sqlite.prepare("SELECT 1 FROM tag_backfill LIMIT 1").get() !== undefined;
}

interface Row {
  id: number;
  probeId: string;
  result: string;
  human: string | null;
  recorded: string | null;
  text: string | null;
}

/** Tags up to `limit` traces of the first waiting run in one IMMEDIATE transaction; false when nothing waits. */
export function backfillStep(db: Db, limit = 1000): boolean {
  return writeSync(db, () => {
    const job = db.sqlite
      .prepare("SELECT run_id AS runId, after_id AS afterId, last_id AS lastId FROM tag_backfill LIMIT 1")
      .get() as { runId: number; afterId: number; lastId: number } | undefined;
    if (!job) return false;
    const rows = db.sqlite
      .prepare(
        `SELECT id, probe_id AS probeId, result, human, recorded, json_extract(response, '$.text') AS text
         FROM traces WHERE run_id = ? AND id > ? AND id <= ? ORDER BY id LIMIT ?`,
      )
      .all(job.runId, job.afterId, job.lastId, limit) as Row[];
    const reviews = currentReviewsOf(
      db,
      rows.map((r) => r.id),
    );
    const sigOf = db.sqlite
      .prepare("SELECT sig FROM trace_tags WHERE run_id = ? AND tag_id = ? AND trace_id = ?")
      .pluck();
    const insert = db.sqlite.prepare(
      "INSERT OR IGNORE INTO trace_tags(run_id, tag_id, trace_id, sig) VALUES (?, ?, ?, ?)",
    );
    const counts = new Map<string, { probe: string; tag: number; n: number }>();
    for (const r of rows) {
      const current: Record<string, string | null> = {};
      for (const [f, rv] of reviews.get(r.id) ?? []) current[f] = rv.label;
      let all: string[];
      try {
        all = traceTags(
          r.probeId,
          JSON.parse(r.result) as TraceScore,
          r.human ? JSON.parse(r.human) : undefined,
          r.recorded ? JSON.parse(r.recorded) : undefined,
          current,
          r.text,
        );
      } catch {
        // A stored result that no longer parses (a damaged row): its tags cannot be told; it keeps
        // the ones it has, as a re-score leaves it, and setup goes on.
        continue;
      }
      const names = all.filter((n) => {
        const kind = parseTag(n)?.kind;
        return kind !== undefined && BACKFILLED.has(kind);
      });
      if (names.length === 0) continue;
      // These tags have no signature bit: a row carries the trace's signature as its others do.
      const probeTag = findTagId(db, `p:${r.probeId}`);
      const sig = probeTag === undefined ? -1 : ((sigOf.get(job.runId, probeTag, r.id) as number) ?? -1);
      for (const name of names) {
        const id = tagId(db, name);
        if (insert.run(job.runId, id, r.id, sig).changes === 0) continue;
        const key = `${r.probeId}\u0000${id}`;
        const c = counts.get(key);
        if (c) c.n++;
        else counts.set(key, { probe: r.probeId, tag: id, n: 1 });
      }
    }
    const bump = db.sqlite.prepare(`INSERT INTO run_counts(run_id, probe_id, tag_id, n) VALUES (?, ?, ?, ?)
      ON CONFLICT(run_id, probe_id, tag_id) DO UPDATE SET n = n + excluded.n`);
    for (const c of counts.values()) bump.run(job.runId, c.probe, c.tag, c.n);
    if (rows.length < limit) db.sqlite.prepare("DELETE FROM tag_backfill WHERE run_id = ?").run(job.runId);
    else
      db.sqlite
        .prepare("UPDATE tag_backfill SET after_id = ? WHERE run_id = ?")
        .run(rows[rows.length - 1].id, job.runId);
    return true;
  });
}

/** Tags every waiting run to its end (`assumeprobe setup` calls it); reports progress now and then. */
export function backfillAll(db: Db, log?: (s: string) => void): number {
  let batches = 0;
  const start = backfillPending(db) ? backfillState(db) : null;
  if (start && log)
    log(
      `assumeprobe: tagging ${start.traces.toLocaleString("en-US")} older traces in ${start.runs} runs for the review queue and agreement…`,
    );
  while (backfillStep(db)) batches++;
  return batches;
}
