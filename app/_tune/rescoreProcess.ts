import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import type { Db } from "@/db/client";
import { newLeaseOwner } from "@/db/queries/bulkRunner";
import { claimRescore, orphanedRescores, RESCORE_LEASE_MS } from "@/db/queries/rescoreJobs";
import { projectRoot } from "@/lib/root";

const state = globalThis as unknown as { assumeprobeRescoreChildren?: Set<ChildProcess> };
const children = () => {
  state.assumeprobeRescoreChildren ??= new Set();
  return state.assumeprobeRescoreChildren;
};

/**
 * Runs queued re-scores in a child process (`assumeprobe rescore-jobs`), one after another, so
 * their batches never hold the server's thread (as a bulk relabel runs). The leases are taken here,
 * before the child starts, so a poll meanwhile does not launch a second runner.
 */
export function launchRescores(db: Db, ids: number[]): void {
  const owner = newLeaseOwner();
  const claimed = ids.filter((id) => claimRescore(db, id, owner, Date.now() + RESCORE_LEASE_MS));
  if (claimed.length === 0) return;
  const root = projectRoot();
  const child = spawn(
    process.execPath,
    [
      join(/*turbopackIgnore: true*/ root, "bin", "assumeprobe.js"),
      "rescore-jobs",
      ...claimed.map(String),
      "--owner",
      owner,
    ],
    { cwd: root, env: { ...process.env, ASSUMEPROBE_DB: db.path }, stdio: ["ignore", "ignore", "inherit"] },
  );
  children().add(child);
  child.on("exit", () => children().delete(child));
  child.on("error", (e) => console.error("re-score: could not start its runner", e));
}

/** Launches the dashboard's re-scores whose runner is gone (after a restart, or a killed runner). */
export function resumeRescores(db: Db): void {
  const orphans = orphanedRescores(db);
  if (orphans.length > 0) launchRescores(db, orphans);
}
