import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../lib/root";
import { getBulkJob } from "../queries/bulkReviews";
import { getBulkAdd } from "../queries/fixturesBulk";
import { saveLexicon } from "../queries/lexicon";
import { queueDashboardRescores } from "../queries/rescore/jobs";
import { inconsistencies, tempDb } from "../testing/ingest";
import {
  addedTwiceOrNot,
  deadOwner,
  doneTwiceOrNot,
  driftRun,
  startedBulk,
  startedBulkAdd,
  until,
} from "../testing/jobs";
import { resumeJobs, runningJobs, startJob } from "./background";
import { BULK_JOBS } from "./bulk";
import { BULK_ADD_JOBS } from "./bulkAdd";
import { abandonedJobs, claimLease, LEASE_MS, newLeaseOwner, ownerAlive } from "./lease";
import { DASHBOARD_RESCORES } from "./rescore";

const { db, cleanup } = tempDb("jobs");
afterAll(cleanup);

const N = 40;
const written = (id: number) => getBulkJob(db, id)?.written ?? 0;

describe("the lease", () => {
  it("is one runner's until it runs out, or at once when its owner's process is gone", async () => {
    const job = await startedBulk(db, await driftRun(db, "lease", 4));
    const now = Date.now();
    const mine = newLeaseOwner();
    expect(ownerAlive(mine)).toBe(true);
    expect(claimLease(db, BULK_JOBS, job.id, mine, now)).toBe(true);
    expect(claimLease(db, BULK_JOBS, job.id, newLeaseOwner(), now)).toBe(false);
    expect(abandonedJobs(db, BULK_JOBS, now)).not.toContain(job.id);
    // A dead process's lease, still running for a minute, is free now.
    const dead = deadOwner();
    expect(ownerAlive(dead)).toBe(false);
    db.sqlite
      .prepare("UPDATE bulk_reviews SET lease_owner = ?, lease_until = ? WHERE id = ?")
      .run(dead, now + 60_000, job.id);
    expect(abandonedJobs(db, BULK_JOBS, now)).toContain(job.id);
    expect(claimLease(db, BULK_JOBS, job.id, mine, now)).toBe(true);
    // Another machine's owner (or an older name) is waited out.
    db.sqlite
      .prepare("UPDATE bulk_reviews SET lease_owner = ?, lease_until = ? WHERE id = ?")
      .run("elsewhere:1:ab", now + 1000, job.id);
    expect(claimLease(db, BULK_JOBS, job.id, mine, now)).toBe(false);
    expect(claimLease(db, BULK_JOBS, job.id, mine, now + LEASE_MS)).toBe(true);
    db.sqlite.prepare("UPDATE bulk_reviews SET status = 'cancelled' WHERE id = ?").run(job.id);
  });
});

describe("a bulk relabel on a worker thread", () => {
  it("killed part way is resumed at once and writes each field once", async () => {
    const job = await startedBulk(db, await driftRun(db, "thread", N));
    expect(job.total).toBe(N);
    const first = startJob(db, "bulk", job.id, { pauseMs: 50, maxFields: 2 });
    await until(() => written(job.id) >= 4, 30_000, "the first batches");
    const thread = runningJobs().find((j) => j.kind === "bulk" && j.id === job.id)?.worker;
    expect(thread).toBeDefined();
    await thread?.terminate();
    expect(await first).toBeUndefined();
    const mid = written(job.id);
    expect(mid).toBeLessThan(N);
    // Its lease was given up when the thread ended: the next look resumes it, without waiting.
    expect(abandonedJobs(db, BULK_JOBS)).toContain(job.id);
    resumeJobs(db);
    expect(await startJob(db, "bulk", job.id)).toMatchObject({ ran: true, status: "done" });
    expect(doneTwiceOrNot(db, job.id)).toEqual([]);
  }, 60_000);

  it("runs at most once per job in a process, and a second runner elsewhere does nothing", async () => {
    const job = await startedBulk(db, await driftRun(db, "once", 10));
    const a = startJob(db, "bulk", job.id, { pauseMs: 20, maxFields: 2 });
    expect(startJob(db, "bulk", job.id)).toBe(a);
    await until(() => written(job.id) >= 2, 30_000, "the first batch");
    // Another process's runner finds the job held and leaves it.
    const { runBulk } = await import("./bulk");
    await runBulk(db, job.id, { owner: newLeaseOwner() });
    expect(getBulkJob(db, job.id)?.status).toBe("running");
    expect(await a).toMatchObject({ status: "done" });
    expect(doneTwiceOrNot(db, job.id)).toEqual([]);
  }, 60_000);
});

describe("a bulk relabel in a process that is killed", () => {
  it("is resumed at once (its lease not waited out) and writes each field once", async () => {
    const job = await startedBulk(db, await driftRun(db, "process", N));
    const root = projectRoot();
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(root, "db", "testing", "jobs.ts"), "bulk", db.path, String(job.id)],
      {
        cwd: root,
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
    const exited = new Promise((r) => child.on("exit", r));
    try {
      await until(() => written(job.id) >= 4, 60_000, "the child's first batches");
    } finally {
      child.kill("SIGKILL");
      await exited;
    }
    const left = db.sqlite
      .prepare("SELECT lease_until FROM bulk_reviews WHERE id = ?")
      .pluck()
      .get(job.id) as number;
    expect(left).toBeGreaterThan(Date.now());
    expect(written(job.id)).toBeLessThan(N);
    expect(abandonedJobs(db, BULK_JOBS)).toContain(job.id);
    resumeJobs(db);
    expect(await startJob(db, "bulk", job.id)).toMatchObject({ ran: true, status: "done" });
    expect(doneTwiceOrNot(db, job.id)).toEqual([]);
  }, 90_000);
});

describe("a bulk add to a fixture set", () => {
  const added = (id: number) => {
    const j = getBulkAdd(db, id);
    return j ? j.added + j.unchanged + j.relabelled : 0;
  };

  it("on a worker thread killed part way is resumed at once and adds each field once", async () => {
    const job = await startedBulkAdd(db, await driftRun(db, "add-thread", N), "add-thread");
    expect(job.total).toBe(N);
    const first = startJob(db, "bulkAdd", job.id, { pauseMs: 50, maxFields: 2 });
    await until(() => added(job.id) >= 4, 30_000, "the first batches");
    const thread = runningJobs().find((j) => j.kind === "bulkAdd" && j.id === job.id)?.worker;
    expect(thread).toBeDefined();
    await thread?.terminate();
    expect(await first).toBeUndefined();
    expect(added(job.id)).toBeLessThan(N);
    expect(abandonedJobs(db, BULK_ADD_JOBS)).toContain(job.id);
    expect(await startJob(db, "bulkAdd", job.id)).toMatchObject({ ran: true, status: "done" });
    expect(addedTwiceOrNot(db, job.id)).toEqual([]);
  }, 60_000);

  it("in a process that is killed is resumed at once (its lease not waited out) and adds each field once", async () => {
    const job = await startedBulkAdd(db, await driftRun(db, "add-process", N), "add-process");
    const root = projectRoot();
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(root, "db", "testing", "jobs.ts"), "bulkAdd", db.path, String(job.id)],
      { cwd: root, stdio: ["ignore", "ignore", "inherit"] },
    );
    const exited = new Promise((r) => child.on("exit", r));
    try {
      await until(() => added(job.id) >= 4, 60_000, "the child's first batches");
    } finally {
      child.kill("SIGKILL");
      await exited;
    }
    const left = db.sqlite
      .prepare("SELECT lease_until FROM bulk_fixture_adds WHERE id = ?")
      .pluck()
      .get(job.id) as number;
    expect(left).toBeGreaterThan(Date.now());
    expect(added(job.id)).toBeLessThan(N);
    expect(abandonedJobs(db, BULK_ADD_JOBS)).toContain(job.id);
    resumeJobs(db);
    expect(await startJob(db, "bulkAdd", job.id)).toMatchObject({ ran: true, status: "done" });
    expect(addedTwiceOrNot(db, job.id)).toEqual([]);
  }, 90_000);
});

describe("a dashboard re-score in a process that is killed", () => {
  it("is resumed at once from its cursor: every trace scanned and changed once", async () => {
    const n = 300;
    const runId = await driftRun(db, "rescore-kill", n);
    // "located" becomes an ask term: every trace's timezone field moves from DRIFT to ASK.
    saveLexicon(db, { timezone: { terms: ["locat*"], rule: "anywhere" } }, { by: "ana" });
    const [id] = queueDashboardRescores(db, [runId], "ana");
    const row = db.sqlite.prepare(
      "SELECT status, scanned, changed, lease_until AS leaseUntil FROM rescores WHERE id = ?",
    );
    const now = () => row.get(id) as { status: string; scanned: number; changed: number; leaseUntil: number };
    const root = projectRoot();
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(root, "db", "testing", "jobs.ts"), "rescore", db.path, String(id)],
      { cwd: root, stdio: ["ignore", "ignore", "inherit"] },
    );
    const exited = new Promise((r) => child.on("exit", r));
    try {
      await until(() => now().changed >= 30, 60_000, "the child's first batches");
    } finally {
      child.kill("SIGKILL");
      await exited;
    }
    const mid = now();
    expect(mid.status).toBe("pending");
    expect(mid.changed).toBeLessThan(n);
    expect(mid.leaseUntil).toBeGreaterThan(Date.now());
    expect(abandonedJobs(db, DASHBOARD_RESCORES)).toContain(id);
    resumeJobs(db);
    expect(await startJob(db, "rescore", id)).toMatchObject({ ran: true, status: "done" });
    expect(now()).toMatchObject({ status: "done", scanned: n, changed: n });
    const asks = db.sqlite
      .prepare("SELECT count(*) FROM traces WHERE run_id = ? AND json_extract(labels, '$.timezone') = 'ASK'")
      .pluck()
      .get(runId);
    expect(asks).toBe(n);
    expect(inconsistencies(db.sqlite)).toEqual([]);
  }, 120_000);
});
