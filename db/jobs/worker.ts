/**
 * The worker thread a background job runs on (background.ts starts it; bundled as dist/job.mjs):
 * its own connection, the job's function called directly, progress and the end posted back.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openDb } from "../client";
import { type JobEnd, type JobProgress, type JobRequest, runJob } from "./kinds";

export type JobMessage = ({ type: "progress" } & JobProgress) | ({ type: "end" } & JobEnd);

const port = parentPort;
const request = workerData as JobRequest | null;
if (port && request) {
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
