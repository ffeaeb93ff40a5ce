import { afterAll, describe, expect, it } from "vitest";
import { bulkAddStatusAction } from "@/app/_fixtures/actions";
import { bulkStatusAction } from "@/app/_review/bulkActions";
import { rescoreStatusAction } from "@/app/_tuning/actions";
import { closeDb } from "@/db/client";
import { runningJobs } from "@/db/jobs/background";
import { bulkStep } from "@/db/queries/bulkReviews";
import { bulkAddStep } from "@/db/queries/fixturesBulk";
import { queueDashboardRescores } from "@/db/queries/rescore/jobs";
import { tempDb } from "@/db/testing/ingest";
import { driftRun, startedBulk, startedBulkAdd } from "@/db/testing/jobs";

const { db, cleanup } = tempDb("status-reads");
const env = process.env.ASSUMEPROBE_DB;
afterAll(() => {
  closeDb();
  process.env.ASSUMEPROBE_DB = env;
  cleanup();
});

/** Every column of the jobs' rows: their lease, cursor, counts and status. */
function rows() {
  return {
    bulk: db.sqlite.prepare("SELECT * FROM bulk_reviews ORDER BY id").all(),
    bulkAdd: db.sqlite.prepare("SELECT * FROM bulk_fixture_adds ORDER BY id").all(),
    rescores: db.sqlite.prepare("SELECT * FROM rescores ORDER BY id").all(),
    fixtures: db.sqlite.prepare("SELECT count(*) FROM fixtures").pluck().get(),
    reviews: db.sqlite.prepare("SELECT count(*) FROM reviews").pluck().get(),
  };
}

describe("the status reads the pages poll", () => {
  it("never start work: a bulk relabel, a bulk add and a re-score left pending stay as they are, unclaimed", async () => {
    const relabelRun = await driftRun(db, "status-relabel", 20);
    const addRun = await driftRun(db, "status-add", 20);
    const relabel = await startedBulk(db, relabelRun);
    const add = await startedBulkAdd(db, addRun, "status-set");
    // Each part way (a batch written, then no runner), as after a restart before the server resumes them.
    bulkStep(db, relabel.id, { maxFields: 4, budgetMs: 60_000 });
    bulkAddStep(db, add.id, { maxFields: 4, budgetMs: 60_000 });
    const [rescore] = queueDashboardRescores(db, [relabelRun], "ana");
    process.env.ASSUMEPROBE_DB = db.path;
    const before = rows();
    expect(before.bulk[0]).toMatchObject({ status: "running", lease_owner: null, written: 4 });
    expect(before.bulkAdd[0]).toMatchObject({ status: "running", lease_owner: null, added: 4 });
    expect(before.rescores).toContainEqual(expect.objectContaining({ id: rescore, lease_owner: null }));

    for (let i = 0; i < 3; i++) {
      expect(await bulkStatusAction({ id: relabel.id })).toMatchObject({
        ok: true,
        job: { status: "running", written: 4 },
      });
      expect(await bulkAddStatusAction({ id: add.id })).toMatchObject({
        ok: true,
        job: { status: "running", done: 4, total: 20 },
      });
      expect(await rescoreStatusAction({ ids: [rescore] })).toMatchObject({ ok: true });
    }
    // Nothing was started on this process, and nothing claimed or moved in the database, even a
    // while later (a thread started by a read would have claimed its job by then).
    expect(runningJobs()).toEqual([]);
    await new Promise((r) => setTimeout(r, 3000));
    expect(runningJobs()).toEqual([]);
    expect(rows()).toEqual(before);
  }, 30_000);
});
