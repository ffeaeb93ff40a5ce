import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTraceFilter } from "../../lib/traceFilter";
import { openDb } from "../client";
import { BULK_JOBS, runBulk } from "../jobs/bulk";
import { abandonedJobs, claimLease, LEASE_MS } from "../jobs/lease";
import { ingestText, tempDb, traceLine } from "../testing/ingest";
import { reviewInconsistencies } from "../testing/reviews";
import { writeSync } from "../write";
import {
  BulkError,
  type BulkSpec,
  bulkSkips,
  bulkStep,
  countBulk,
  getBulkJob,
  startBulk,
} from "./bulkReviews";
import { currentReviews, writeReviews } from "./reviews";

const { db, dir, cleanup } = tempDb("bulk");
afterAll(cleanup);

const N = 60;
const text = (t: string) => ({ response: { text: t, tool_calls: [] } });
/** Thirds: DRIFT (no ask term), ASK, INJECT bait; every sixth has an imported human label. */
function line(i: number, run: string): string {
  const human = i % 6 === 0 ? { human: { timezone: "ASK" } } : {};
  switch (i % 3) {
    case 0:
      return traceLine({ id: `${run}-${i}`, ...human, ...text(`Where is the user located? (${i})`) });
    case 1:
      return traceLine({ id: `${run}-${i}`, ...human, ...text("Which timezone should I use?") });
    default:
      return traceLine({ id: `${run}-${i}`, ...human }, { timezone: "UTC" });
  }
}

async function loadRun(run: string, n = N): Promise<number> {
  const lines = Array.from({ length: n }, (_, i) => line(i, run));
  await ingestText(db, `${run}.jsonl`, `${lines.join("\n")}\n`, { run });
  return db.sqlite.prepare("SELECT id FROM runs WHERE name = ?").pluck().get(run) as number;
}

const traceIds = (runId: number, where = "1") =>
  db.sqlite
    .prepare(`SELECT id FROM traces WHERE run_id = ? AND ${where} ORDER BY id`)
    .pluck()
    .all(runId) as number[];
const driftIds = (runId: number) => traceIds(runId, "json_extract(labels, '$.timezone') = 'DRIFT'");
const spec = (runId: number, query: Record<string, string>, label: BulkSpec["label"] = "ASK"): BulkSpec => ({
  runId,
  filter: parseTraceFilter(query),
  field: query.field ?? "timezone",
  label,
});
const who = { reviewer: "bulk", note: "questions without the word" };

let runA = 0;
beforeAll(async () => {
  runA = await loadRun("a");
});

describe("bulk relabel", () => {
  it("counts the filter's fields and writes each through the one write path, in batches of the size asked", async () => {
    const s = spec(runA, { label: "DRIFT" });
    const mark = await countBulk(db, s);
    expect(mark.total).toBe(N / 3);
    const job = startBulk(db, s, mark, who);
    const sizes: number[] = [];
    for (let j = getBulkJob(db, job.id); j?.status === "running"; ) {
      const before = j.written;
      j = bulkStep(db, job.id, { maxFields: 7, budgetMs: 60_000 });
      sizes.push((j?.written ?? 0) - before);
    }
    expect(sizes.slice(0, -1).every((n) => n === 7)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(N / 3);
    const done = getBulkJob(db, job.id);
    expect(done).toMatchObject({ status: "done", written: N / 3, skipped: 0, total: N / 3 });
    for (const id of driftIds(runA)) {
      expect(currentReviews(db, id).get("timezone")).toMatchObject({
        label: "ASK",
        reviewer: "bulk",
        note: who.note,
      });
    }
    expect(reviewInconsistencies(db)).toEqual([]);
  });

  it("refuses a second job on a run while one runs, and resumes a job from its cursor on a new connection", async () => {
    const runB = await loadRun("b");
    const s = spec(runB, { label: "ASK" }, "DRIFT");
    const job = startBulk(db, s, await countBulk(db, s), who);
    expect(() => startBulk(db, s, { total: 1, seenReviewId: 0, lastTraceId: 0 }, who)).toThrow(BulkError);
    // A batch also ends when its time is up (here at once: one trace per batch).
    bulkStep(db, job.id, { maxFields: 5, budgetMs: 0 });
    expect(getBulkJob(db, job.id)?.written).toBe(1);
    bulkStep(db, job.id, { maxFields: 4, budgetMs: 60_000 });
    const half = getBulkJob(db, job.id);
    expect(half?.written).toBe(5);
    // A restart: another connection (another process) picks the job up where it stopped.
    const other = openDb(`${dir}/test.db`);
    try {
      const end = await runBulk(other, job.id);
      expect(end).toMatchObject({ status: "done", written: N / 3 });
    } finally {
      other.sqlite.close();
    }
    expect(reviewInconsistencies(db)).toEqual([]);
  });

  it("skips and lists a field reviewed after the count was shown, and never overwrites it", async () => {
    const runC = await loadRun("c");
    const s = spec(runC, { label: "DRIFT" });
    const mark = await countBulk(db, s);
    const [first, , third] = driftIds(runC);
    writeSync(db, () =>
      writeReviews(db, {
        traceId: third,
        reviewer: "eve",
        items: [{ field: "timezone", label: "DRIFT", base: null }],
      }),
    );
    const job = startBulk(db, s, mark, who);
    const end = await runBulk(db, job.id);
    expect(end).toMatchObject({ status: "done", written: N / 3 - 1, skipped: 1 });
    expect(currentReviews(db, third).get("timezone")).toMatchObject({ reviewer: "eve", label: "DRIFT" });
    expect(currentReviews(db, first).get("timezone")?.reviewer).toBe("bulk");
    expect(bulkSkips(db, job.id)).toEqual([
      {
        traceId: third,
        field: "timezone",
        review: expect.objectContaining({ reviewer: "eve", label: "DRIFT" }),
      },
    ]);
  });

  it("selects by the human label as it was at the count: a field reviewed since is skipped and listed, though it left the filter", async () => {
    const runD = await loadRun("d");
    const s = spec(runD, { label: "DRIFT", human: "unreviewed" });
    // An imported label is a human label: those fields are not unreviewed.
    const imported = db.sqlite.prepare("SELECT human IS NOT NULL FROM traces WHERE id = ?").pluck();
    const drift = driftIds(runD).filter((id) => imported.get(id) === 0);
    writeSync(db, () =>
      writeReviews(db, {
        traceId: drift[0],
        reviewer: "eve",
        items: [{ field: "timezone", label: "ASK", base: null }],
      }),
    );
    const mark = await countBulk(db, s);
    expect(mark.total).toBe(drift.length - 1);
    // Reviewed after the count: it no longer matches "unreviewed", but it did when the count was shown.
    writeSync(db, () =>
      writeReviews(db, {
        traceId: drift[1],
        reviewer: "fay",
        items: [{ field: "timezone", label: "OMIT", base: null }],
      }),
    );
    const job = startBulk(db, s, mark, who);
    const end = await runBulk(db, job.id);
    expect(end).toMatchObject({ written: drift.length - 2, skipped: 1 });
    expect(bulkSkips(db, job.id).map((k) => [k.traceId, k.review.reviewer])).toEqual([[drift[1], "fay"]]);
    expect(currentReviews(db, drift[0]).get("timezone")?.reviewer).toBe("eve");
  });

  it("leaves traces ingested after the count alone", async () => {
    const runE = await loadRun("e", 30);
    const s = spec(runE, { label: "DRIFT" });
    const mark = await countBulk(db, s);
    const more = Array.from({ length: 30 }, (_, i) => line(i + 100, "e"));
    await ingestText(db, "e2.jsonl", `${more.join("\n")}\n`, { run: "e" });
    const end = await runBulk(db, startBulk(db, s, mark, who).id);
    expect(end?.written).toBe(10);
    const late = driftIds(runE).filter((id) => id > mark.lastTraceId);
    expect(late.length).toBe(10);
    for (const id of late) expect(currentReviews(db, id).size).toBe(0);
  });

  it("on any field writes each field that meets the filter itself; a clear writes only where there is a review", async () => {
    const runF = await loadRun("f", 12);
    const s = spec(runF, { field: "*", label: "DRIFT" });
    const mark = await countBulk(db, s);
    // DRIFT texts have timezone DRIFT and severity DRIFT; ASK texts only severity DRIFT.
    const both = traceIds(runF, "json_extract(labels, '$.severity') = 'DRIFT'").length;
    const tz = driftIds(runF).length;
    expect(mark.total).toBe(both + tz);
    await runBulk(db, startBulk(db, s, mark, who).id);
    const clear = spec(runF, { field: "severity" }, null);
    const cm = await countBulk(db, clear);
    expect(cm.total).toBe(both);
    const end = await runBulk(db, startBulk(db, clear, cm, who).id);
    expect(end?.written).toBe(both);
    for (const id of traceIds(runF)) expect(currentReviews(db, id).get("severity")?.label ?? null).toBe(null);
    expect(reviewInconsistencies(db)).toEqual([]);
  });

  it("lets only one runner hold a job until its lease runs out", async () => {
    const runG = await loadRun("g", 6);
    const s = spec(runG, { label: "DRIFT" });
    const job = startBulk(db, s, await countBulk(db, s), who);
    const now = Date.now();
    expect(claimLease(db, BULK_JOBS, job.id, "one", now)).toBe(true);
    expect(claimLease(db, BULK_JOBS, job.id, "two", now)).toBe(false);
    expect(claimLease(db, BULK_JOBS, job.id, "one", now + 1000)).toBe(true);
    expect(claimLease(db, BULK_JOBS, job.id, "two", now + LEASE_MS)).toBe(false);
    expect(claimLease(db, BULK_JOBS, job.id, "two", now + LEASE_MS + 2000)).toBe(true);
    // Held: not abandoned; once its lease runs out (its runner died), it is, and is resumed.
    expect(abandonedJobs(db, BULK_JOBS, now + 2 * LEASE_MS)).not.toContain(job.id);
    expect(abandonedJobs(db, BULK_JOBS, now + 2 * LEASE_MS + 3000)).toContain(job.id);
  });
});
