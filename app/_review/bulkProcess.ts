import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import type { Db } from "@/db/client";
import { claimBulk } from "@/db/queries/bulkReviews";
import { LEASE_MS, newLeaseOwner, orphanedBulkJobs } from "@/db/queries/bulkRunner";
import { projectRoot } from "@/lib/root";

const state = globalThis as unknown as { assumeprobeBulkChildren?: Map<number, ChildProcess> };
const children = () => {
  state.assumeprobeBulkChildren ??= new Map();
  return state.assumeprobeBulkChildren;
};

/**
 * Runs a bulk relabel job in a child process (`assumeprobe bulk-run`), so its batches never hold
 * the server's thread: pages are answered meanwhile. The lease is taken here, before the child
 * starts, so a poll that comes while it starts does not launch a second one.
 */
export function launchBulk(db: Db, jobId: number): boolean {
  const running = children().get(jobId);
  if (running && running.exitCode === null && running.signalCode === null) return false;
  const owner = newLeaseOwner();
  if (!claimBulk(db, jobId, owner, Date.now() + LEASE_MS)) return false;
  const root = projectRoot();
  const child = spawn(
    process.execPath,
    [
      join(/*turbopackIgnore: true*/ root, "bin", "assumeprobe.js"),
      "bulk-run",
      String(jobId),
      "--owner",
      owner,
    ],
    { cwd: root, env: { ...process.env, ASSUMEPROBE_DB: db.path }, stdio: ["ignore", "ignore", "inherit"] },
  );
  children().set(jobId, child);
  child.on("exit", () => {
    if (children().get(jobId) === child) children().delete(jobId);
  });
  child.on("error", (e) => console.error(`bulk relabel ${jobId}: could not start its runner`, e));
  return true;
}

/** Launches every unfinished job whose runner is gone (after a restart, or a killed runner). */
export function resumeBulkJobs(db: Db): void {
  for (const job of orphanedBulkJobs(db)) launchBulk(db, job.id);
}
