import { afterAll, describe, expect, it } from "vitest";
import { register } from "../../instrumentation";
import { closeDb } from "../client";
import { bulkStep, getBulkJob } from "../queries/bulkReviews";
import { bulkAddStep, getBulkAdd } from "../queries/fixturesBulk";
import { queueDashboardRescores } from "../queries/rescore/jobs";
import { tempDb } from "../testing/ingest";
import {
  addedTwiceOrNot,
  deadOwner,
  doneTwiceOrNot,
  driftRun,
  startedBulk,
  startedBulkAdd,
  until,
} from "../testing/jobs";

const { db, cleanup } = tempDb("resume");
const env = { db: process.env.ASSUMEPROBE_DB, runtime: process.env.NEXT_RUNTIME };
afterAll(() => {
  closeDb();
  process.env.ASSUMEPROBE_DB = env.db;
  process.env.NEXT_RUNTIME = env.runtime;
  cleanup();
});

describe("after a restart", () => {
  it("the server's start resumes a killed bulk relabel, bulk add and re-score in the background, with no page opened and no lease waited out", async () => {
    const runId = await driftRun(db, "restart", 30);
    const job = await startedBulk(db, runId);
    // The server that ran them was killed part way: its leases still run for a minute.
    const dead = deadOwner();
    bulkStep(db, job.id, { maxFields: 4, budgetMs: 60_000 });
    const add = await startedBulkAdd(db, await driftRun(db, "restart-add", 30), "restart");
    bulkAddStep(db, add.id, { maxFields: 4, budgetMs: 60_000 });
    const [rescore] = queueDashboardRescores(db, [runId], "ana");
    const until60 = Date.now() + 60_000;
    db.sqlite
      .prepare("UPDATE bulk_reviews SET lease_owner = ?, lease_until = ? WHERE id = ?")
      .run(dead, until60, job.id);
    db.sqlite
      .prepare("UPDATE bulk_fixture_adds SET lease_owner = ?, lease_until = ? WHERE id = ?")
      .run(dead, until60, add.id);
    db.sqlite
      .prepare("UPDATE rescores SET lease_owner = ?, lease_until = ? WHERE id = ?")
      .run(dead, until60, rescore);
    expect(getBulkJob(db, job.id)?.written).toBe(4);
    expect(getBulkAdd(db, add.id)?.added).toBe(4);

    process.env.ASSUMEPROBE_DB = db.path;
    process.env.NEXT_RUNTIME = "nodejs";
    const t0 = performance.now();
    await register();
    // The start hook only starts threads: it returns before the work is done.
    expect(performance.now() - t0).toBeLessThan(5000);
    const status = db.sqlite.prepare("SELECT status FROM rescores WHERE id = ?").pluck();
    await until(
      () =>
        getBulkJob(db, job.id)?.status === "done" &&
        getBulkAdd(db, add.id)?.status === "done" &&
        status.get(rescore) === "done",
      12_000,
      "the jobs to finish in the background",
    );
    expect(doneTwiceOrNot(db, job.id)).toEqual([]);
    expect(addedTwiceOrNot(db, add.id)).toEqual([]);
  }, 30_000);
});
