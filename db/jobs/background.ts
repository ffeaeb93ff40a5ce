/**
 * Runs jobs off the server's request thread: each job on its own worker thread (worker.ts) with
 * its own connection, at most one per job in this process. `watchJobs` (from instrumentation.ts,
 * when the server starts) resumes the jobs a restart or a killed runner left, at once and then
 * whenever a lease runs out; reading a job's status never starts one.
 */
import type { Worker } from "node:worker_threads";
import type { Db } from "../client";
import { write } from "../write";
import { JOB_KINDS, type JobEnd, type JobKind, type JobProgress } from "./kinds";
import { abandonedJobs, holds, LEASE_MS, newLeaseOwner, releaseLease } from "./lease";
import { startThread } from "./threads";
import type { JobMessage, WorkerStart } from "./worker";

interface Running {
  kind: JobKind;
  worker?: Worker;
  progress?: JobProgress;
  ended: Promise<JobEnd | undefined>;
  start: () => void;
}

/** At most this many jobs of a kind run at once; the rest wait their turn (re-scores: one after another). */
const AT_ONCE: Record<JobKind, number> = { bulk: 4, bulkAdd: 4, rescore: 1 };

const g = globalThis as unknown as {
  assumeprobeJobs?: Map<string, Running>;
  assumeprobeJobWatch?: NodeJS.Timeout;
};
const jobs = () => {
  g.assumeprobeJobs ??= new Map();
  return g.assumeprobeJobs;
};
const key = (kind: JobKind, id: number) => `${kind}:${id}`;

function startWaiting(kind: JobKind): void {
  const mine = [...jobs().values()].filter((j) => j.kind === kind);
  let free = AT_ONCE[kind] - mine.filter((j) => j.worker).length;
  for (const j of mine) {
    if (free <= 0) return;
    if (!j.worker) {
      j.start();
      free--;
    }
  }
}

/**
 * A thread killed part way leaves its lease: give it up, so the job is resumed at once. A read
 * first (it never waits), and the write, rarely needed, waits for the lock without blocking the
 * request thread.
 */
async function giveUp(db: Db, kind: JobKind, id: number, owner: string): Promise<void> {
  const lease = JOB_KINDS[kind].lease;
  try {
    if (!db.sqlite.open || !holds(db, lease, id, owner)) return;
    await write(db, () => releaseLease(db, lease, id, owner));
  } catch (e) {
    console.error(`${kind} job ${id}: could not give its lease up (it is taken over when it runs out)`, e);
  }
}

/**
 * Runs a job on a worker thread unless this process already runs it (or has it waiting its turn);
 * resolves when the thread ends (undefined when it stopped without an answer: killed, or it threw,
 * which is logged).
 */
export function startJob(
  db: Db,
  kind: JobKind,
  id: number,
  opts: { pauseMs?: number; maxFields?: number } = {},
): Promise<JobEnd | undefined> {
  const k = key(kind, id);
  const hit = jobs().get(k);
  if (hit) return hit.ended;
  let resolveEnd: (e: JobEnd | undefined) => void = () => {};
  const entry: Running = {
    kind,
    ended: new Promise((resolve) => {
      resolveEnd = resolve;
    }),
    start: () => {
      const owner = newLeaseOwner();
      const worker = startThread("job", {
        job: { kind, id, path: db.path, owner, ...opts },
      } satisfies WorkerStart);
      entry.worker = worker;
      let end: JobEnd | undefined;
      worker.on("message", (m: JobMessage) => {
        if (m.type === "progress") entry.progress = { done: m.done, total: m.total };
        else end = { ran: m.ran, status: m.status };
      });
      worker.on("error", (e) => console.error(`${kind} job ${id} failed on its thread:`, e));
      worker.on("exit", () => {
        if (jobs().get(k) === entry) jobs().delete(k);
        void giveUp(db, kind, id, owner).finally(() => {
          resolveEnd(end);
          startWaiting(kind);
        });
      });
    },
  };
  jobs().set(k, entry);
  startWaiting(kind);
  return entry.ended;
}

/** The jobs this process runs or has waiting, with their last progress. */
export function runningJobs(): { kind: JobKind; id: number; progress?: JobProgress; worker?: Worker }[] {
  return [...jobs()].map(([k, r]) => ({
    kind: r.kind,
    id: Number(k.split(":")[1]),
    progress: r.progress,
    worker: r.worker,
  }));
}

/** Starts every job nobody runs (after a restart, or a killed runner). */
export function resumeJobs(db: Db): void {
  for (const kind of Object.keys(JOB_KINDS) as JobKind[])
    for (const id of abandonedJobs(db, JOB_KINDS[kind].lease)) void startJob(db, kind, id);
}

/** At server start: resume what was left now, and look again each time a lease could have run out. */
export function watchJobs(db: Db): void {
  if (g.assumeprobeJobWatch) return;
  try {
    resumeJobs(db);
  } catch (e) {
    console.error("could not resume the background jobs:", e);
  }
  g.assumeprobeJobWatch = setInterval(() => {
    try {
      resumeJobs(db);
    } catch (e) {
      console.error("could not resume the background jobs:", e);
    }
  }, LEASE_MS);
  g.assumeprobeJobWatch.unref();
}
