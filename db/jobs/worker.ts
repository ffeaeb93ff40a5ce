/**
 * The one worker-thread entry of the dashboard's background work (bundled as dist/job.mjs):
 * either one job (workerData: a JobRequest; background.ts starts it), run by calling the job's
 * function directly, its progress and end posted back; or, on a long-lived thread (offThread.ts),
 * calls (calls.ts) answered one after another. Each thread has its own connection.
 */
import { parentPort, workerData } from "node:worker_threads";
import { type Db, openDb } from "../client";
import { CALLS, type CallReply, type CallRequest, refused } from "./calls";
import { type JobEnd, type JobProgress, type JobRequest, runJob } from "./kinds";

export type JobMessage = ({ type: "progress" } & JobProgress) | ({ type: "end" } & JobEnd);

/** What a thread is started for. */
export type WorkerStart = { job: JobRequest } | { calls: true };

const port = parentPort;
const start = workerData as WorkerStart | null;

async function runOne(request: JobRequest): Promise<void> {
  if (!port) return;
  const db = openDb(request.path);
  try {
    const end = await runJob(db, request, (p) =>
      port.postMessage({ type: "progress", ...p } satisfies JobMessage),
    );
    port.postMessage({ type: "end", ...end } satisfies JobMessage);
  } finally {
    db.sqlite.close();
  }
}

function answerCalls(): void {
  if (!port) return;
  const dbs = new Map<string, Db>();
  port.on("message", (m: CallRequest) => {
    try {
      let db = dbs.get(m.path);
      if (!db) {
        db = openDb(m.path);
        dbs.set(m.path, db);
      }
      const call = CALLS[m.name] as (db: Db, args: unknown) => unknown;
      port.postMessage({ seq: m.seq, value: call(db, m.args) } satisfies CallReply);
    } catch (e) {
      port.postMessage({
        seq: m.seq,
        error: e instanceof Error ? e.message : String(e),
        refused: refused(e),
      } satisfies CallReply);
    }
  });
}

if (start && "job" in start) await runOne(start.job);
else if (start && "calls" in start) answerCalls();
