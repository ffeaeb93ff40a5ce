import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { tempDb } from "../testing/ingest";
import { beginIngestBatch, markInterruptedIngests } from "./ingestBatches";

const { db, cleanup } = tempDb("batches");
afterAll(cleanup);
const q = db.sqlite;

/** The pid of a process that has ended. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
    encoding: "utf8",
  });
  return Number(r.stdout);
}

const insert = (pid: number | null, host: string | null, heartbeatAgo: string) =>
  Number(
    q
      .prepare(
        `INSERT INTO ingest_batches(origin, files, pid, host, heartbeat_at)
         VALUES ('cli', '[]', ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)) RETURNING id`,
      )
      .pluck()
      .get(pid, host, heartbeatAgo),
  );
const status = (id: number) => q.prepare("SELECT status FROM ingest_batches WHERE id = ?").pluck().get(id);

describe("interrupted ingests", () => {
  it("marks a running ingest whose process is gone, and leaves live ones running", () => {
    const live = insert(process.pid, hostname(), "-1 hours");
    const dead = insert(deadPid(), hostname(), "-0 minutes");
    const otherFresh = insert(1, "elsewhere.example", "-1 minutes");
    const otherStale = insert(1, "elsewhere.example", "-16 minutes");
    const legacy = insert(null, null, "-0 minutes");
    expect(markInterruptedIngests(db)).toBe(3);
    expect([live, dead, otherFresh, otherStale, legacy].map(status)).toEqual([
      "running",
      "interrupted",
      "running",
      "interrupted",
      "interrupted",
    ]);
    expect(q.prepare("SELECT error FROM ingest_batches WHERE id = ?").pluck().get(otherStale)).toMatch(
      /^its process \(pid 1 on elsewhere\.example\) ended before it finished/,
    );
  });

  it("is done by every ingest as it starts", () => {
    const dead = insert(deadPid(), hostname(), "-0 minutes");
    const id = beginIngestBatch(db, "cli", ["x.jsonl"]);
    expect(status(dead)).toBe("interrupted");
    expect(q.prepare("SELECT status, pid, host FROM ingest_batches WHERE id = ?").get(id)).toEqual({
      status: "running",
      pid: process.pid,
      host: hostname(),
    });
  });
});
