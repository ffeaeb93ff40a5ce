/**
 * Fixtures from a blind round's settled labels: by default only the fields two reviewers agreed on
 * or an adjudication settled, each fixture recording how (`settled`); `single` fields (one review
 * so far) join only when asked. Disputed fields never do (they have no human label). The answer
 * says how many fields were skipped as disputed, single or not yet reviewed.
 */

import { FixtureError } from "../../lib/fixtures/errors";
import { LABELS, type Label } from "../../lib/probe/schema";
import { settledOf } from "../../lib/review/rounds";
import type { Db } from "../client";
import { writableSet } from "./fixtureSets";
import type { AddedFixture, TraceFieldAdd } from "./fixtures";
import { writeTraceFields } from "./fixtures";
import { currentReviews } from "./reviews";

export interface RoundAddResult {
  set: string;
  created: boolean;
  added: number;
  relabelled: number;
  unchanged: number;
  skippedDisputed: number;
  skippedSingle: number;
  skippedOpen: number;
}

const BATCH = 500;

/** Adds a round's settled fields to a set. Call inside a transaction (writeSync / write). */
export function writeRoundToSet(
  db: Db,
  roundId: number,
  setName: string,
  reviewer: string,
  { single = false }: { single?: boolean } = {},
): RoundAddResult {
  if (!db.sqlite.prepare("SELECT 1 FROM review_rounds WHERE id = ?").get(roundId))
    throw new FixtureError("no_trace", `there is no round ${roundId}`);
  const counts = Object.fromEntries(
    (
      db.sqlite
        .prepare("SELECT state, count(*) AS n FROM round_fields WHERE round_id = ? GROUP BY state")
        .all(roundId) as { state: string; n: number }[]
    ).map((r) => [r.state, r.n]),
  ) as Record<string, number>;
  const states = single ? ["agreed", "adjudicated", "single"] : ["agreed", "adjudicated"];
  const { set, created } = writableSet(db, setName);
  const out: RoundAddResult = {
    set: set.name,
    created,
    added: 0,
    relabelled: 0,
    unchanged: 0,
    skippedDisputed: counts.disputed ?? 0,
    skippedSingle: single ? 0 : (counts.single ?? 0),
    skippedOpen: counts.open ?? 0,
  };
  const page = db.sqlite.prepare(
    `SELECT pos, trace_id AS traceId, field FROM round_fields WHERE round_id = ? AND state = ? AND pos > ?
     ORDER BY pos LIMIT ${BATCH}`,
  );
  for (const state of states) {
    let after = 0;
    for (;;) {
      const rows = page.all(roundId, state, after) as { pos: number; traceId: number; field: string }[];
      if (rows.length === 0) break;
      after = rows[rows.length - 1].pos;
      const items: TraceFieldAdd[] = [];
      for (const r of rows) {
        const cur = currentReviews(db, r.traceId).get(r.field);
        if (!cur?.label || !(LABELS as readonly string[]).includes(cur.label)) continue;
        items.push({
          traceId: r.traceId,
          field: r.field,
          expected: cur.label as Label,
          note: cur.note,
          settled: settledOf(cur.state),
        });
      }
      if (items.length === 0) continue;
      const res = writeTraceFields(db, set.name, reviewer, items);
      for (const f of res.fixtures as AddedFixture[]) out[f.outcome]++;
    }
  }
  return out;
}
