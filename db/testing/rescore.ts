/** What re-score tests compare: every trace's stored columns and tag rows, and a brute-force recount. */
import { expect } from "vitest";
import { tagSignature } from "../../lib/ingest/tagSignature";
import { traceTags } from "../../lib/ingest/tags";
import type { TraceScore } from "../../lib/probe/score";
import type { Db } from "../client";
import { currentReviewLabelsOf } from "../queries/reviews";
import { inconsistencies } from "./ingest";

export interface Row {
  key: string;
  result: string;
  labels: string;
  gate: string;
  response: string;
  tags: string[];
  sigs: number[];
}

/** Every trace by run and record id, with its stored columns and tag rows. */
export function snapshot(db: Db): Map<string, Row> {
  const rows = db.sqlite
    .prepare(
      `SELECT r.name || '#' || t.ext_id AS key, t.result, t.labels, t.gate, t.response,
         (SELECT json_group_array(n.name) FROM trace_tags x JOIN tag_names n ON n.id = x.tag_id
           WHERE x.run_id = t.run_id AND x.trace_id = t.id) AS tags,
         (SELECT json_group_array(DISTINCT x.sig) FROM trace_tags x WHERE x.run_id = t.run_id AND x.trace_id = t.id) AS sigs
       FROM traces t JOIN runs r ON r.id = t.run_id ORDER BY t.id`,
    )
    .all() as (Omit<Row, "tags" | "sigs"> & { tags: string; sigs: string })[];
  return new Map(
    rows.map((r) => [
      r.key,
      { ...r, tags: (JSON.parse(r.tags) as string[]).sort(), sigs: JSON.parse(r.sigs) },
    ]),
  );
}

/** Tag rows, counts and signatures all follow from the stored results and reviews (a brute-force recount). */
export function expectConsistent(db: Db): void {
  expect(inconsistencies(db.sqlite)).toEqual([]);
  const rows = db.sqlite
    .prepare("SELECT probe_id AS probe, result, human, recorded, response, id FROM traces")
    .all() as {
    probe: string;
    result: string;
    human: string | null;
    recorded: string | null;
    response: string;
    id: number;
  }[];
  const snap = snapshot(db);
  const byId = new Map(
    (
      db.sqlite
        .prepare("SELECT t.id, r.name || '#' || t.ext_id AS key FROM traces t JOIN runs r ON r.id = t.run_id")
        .all() as {
        id: number;
        key: string;
      }[]
    ).map((r) => [r.id, r.key]),
  );
  for (const r of rows) {
    const want = traceTags(
      r.probe,
      JSON.parse(r.result) as TraceScore,
      r.human ? JSON.parse(r.human) : undefined,
      r.recorded ? JSON.parse(r.recorded) : undefined,
      currentReviewLabelsOf(db, [r.id]).get(r.id),
      JSON.parse(r.response).text,
    );
    const have = snap.get(byId.get(r.id) as string) as Row;
    expect(have.tags).toEqual([...want].sort());
    expect(have.sigs).toEqual([tagSignature(want)]);
  }
  const mismatch = db.sqlite
    .prepare(
      `SELECT r.mismatch_count AS stored, (SELECT count(*) FROM traces t WHERE t.run_id = r.id
         AND t.result LIKE '%"model_mismatch"%') AS recount FROM runs r`,
    )
    .all() as { stored: number; recount: number }[];
  for (const m of mismatch) expect(m.stored).toBe(m.recount);
}
