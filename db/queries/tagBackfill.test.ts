import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDb } from "../testing/ingest";
import { loadQueueRuns, slowQueue } from "../testing/queue";
import { reviewInconsistencies } from "../testing/reviews";
import { writeSync } from "../write";
import { nextQueueItem, queueProgress, resolveScope } from "./queue";
import { writeReviews } from "./reviews";
import { backfillAll, backfillPending, backfillState, backfillStep } from "./tagBackfill";

const { db, cleanup } = tempDb("backfill");
afterAll(cleanup);

let ids = new Map<string, number>();
beforeAll(async () => {
  ids = await loadQueueRuns(db);
});

/**
 * The database as a release before the queue left it: no `q:`, `qp:`, `qd:` or `hp:` rows or
 * counts, and migration 0007's list of runs to tag.
 */
function forgetReviewLoopTags() {
  const old =
    "(SELECT id FROM tag_names WHERE name LIKE 'q:%' OR name LIKE 'qp:%' OR name LIKE 'qd:%' OR name LIKE 'hp:%')";
  db.sqlite.exec(
    `DELETE FROM trace_tags WHERE tag_id IN ${old}; DELETE FROM run_counts WHERE tag_id IN ${old};`,
  );
  db.sqlite.exec(
    "INSERT INTO tag_backfill(run_id, last_id) SELECT run_id, max(id) FROM traces GROUP BY run_id",
  );
}

describe("tag backfill", () => {
  it("gives traces stored before the queue its tags and counts, in batches, reviews included", () => {
    const scope = resolveScope(db, { run: "q-old" });
    const want = slowQueue(db, scope);
    forgetReviewLoopTags();
    expect(nextQueueItem(db, scope)).toBe(null);
    expect(backfillPending(db)).toBe(true);
    expect(backfillState(db)).toEqual({ runs: 3, traces: ids.size });
    // A review landing before its trace is tagged: the backfill keeps what it wrote.
    const r = writeSync(db, () =>
      writeReviews(db, {
        traceId: ids.get("o-drift-q") as number,
        reviewer: "ana",
        items: [{ field: "timezone", label: "ASK", base: null }],
      }),
    );
    expect(r.ok).toBe(true);
    expect(backfillStep(db, 5)).toBe(true);
    expect(backfillState(db).traces).toBe(ids.size - 5);
    expect(backfillAll(db)).toBeGreaterThan(1);
    expect(backfillPending(db)).toBe(false);
    expect(backfillStep(db)).toBe(false);
    expect(reviewInconsistencies(db)).toEqual([]);
    const now = slowQueue(db, scope);
    // The reviewed trace still waits for its severity: the same items, one field fewer.
    expect(now.items).toEqual(want.items);
    expect(now.progress).toMatchObject({ reviewed: 1, waitingTotal: want.progress.waitingTotal - 1 });
    expect(queueProgress(db, scope)).toEqual(now.progress);
    expect(nextQueueItem(db, scope)).toEqual(now.items[0]);
  });
});
