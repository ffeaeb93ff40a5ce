import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, expect, it } from "vitest";
import { inconsistencies } from "../../db/testing/ingest";

const ROOT = join(import.meta.dirname, "..", "..");
const N = 100_000;
const dir = mkdtempSync(join(tmpdir(), "assumeprobe-kill-"));
const file = join(dir, "big.jsonl");
const dbPath = join(dir, "kill.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Valid records of several kinds (ids, no ids, runs named and not), so every table gets rows. */
function writeBigFile(): void {
  const zones = ["UTC", "Asia/Tokyo", null, "u_9182", "2026-09-08T09:00:00"];
  const lines: string[] = [];
  for (let i = 0; i < N; i++) {
    const args: Record<string, unknown> = { user_id: "u_9182", starts_at: "2026-09-08T09:00:00" };
    const tz = zones[i % zones.length];
    if (tz !== null) args.timezone = tz;
    const rec: Record<string, unknown> = {
      model: "m-1",
      response: { tool_call: { name: "schedule_window", arguments: args } },
    };
    if (i % 3 === 0) rec.id = `r${i}`;
    if (i % 4 === 0) rec.run = "named";
    if (i % 7 === 0) rec.response = { text: `Which time zone, #${i}?` };
    lines.push(JSON.stringify(rec));
  }
  writeFileSync(file, `${lines.join("\n")}\n`);
}

function cli(
  args: string[],
): ChildProcess & { done: Promise<{ code: number | null; signal: string | null }> } {
  const child = spawn(process.execPath, [join(ROOT, "bin", "assumeprobe.js"), ...args], {
    cwd: ROOT,
    env: { ...process.env, ASSUMEPROBE_DB: dbPath },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const done = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return Object.assign(child, { done });
}

/** Traces committed so far, read through a separate read-only connection (0 while there is no table). */
function committedTraces(): number {
  if (!existsSync(dbPath)) return 0;
  let ro: Database.Database | undefined;
  try {
    ro = new Database(dbPath, { readonly: true, fileMustExist: true });
    return ro.prepare("SELECT count(*) FROM traces").pluck().get() as number;
  } catch {
    return 0;
  } finally {
    ro?.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it("survives SIGKILL mid-ingest: the database stays consistent and a rerun stores every record once", async () => {
  writeBigFile();
  const first = cli(["ingest", file, "--no-progress"]);
  let exited = false;
  first.done.then(() => {
    exited = true;
  });
  while (!exited && committedTraces() === 0) await sleep(20);
  expect(exited, "the ingest finished before any batch was seen: nothing to kill").toBe(false);
  first.kill("SIGKILL");
  expect((await first.done).signal).toBe("SIGKILL");

  const db = new Database(dbPath);
  expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
  const before = db.prepare("SELECT count(*) FROM traces").pluck().get() as number;
  expect(before).toBeGreaterThan(0);
  expect(before).toBeLessThan(N);
  expect(inconsistencies(db)).toEqual([]);
  // The killed ingest's row still says running: nothing could settle it.
  expect(db.prepare("SELECT status, pid FROM ingest_batches ORDER BY id").all()).toEqual([
    { status: "running", pid: first.pid },
  ]);
  db.close();

  const second = cli(["ingest", file, "--no-progress", "--json"]);
  let out = "";
  second.stdout?.on("data", (c) => {
    out += c;
  });
  const { code } = await second.done;
  expect(code).toBe(0);
  const summary = JSON.parse(out.trim().split("\n").at(-1) ?? "");
  expect(summary).toMatchObject({ records: N, ingested: N - before, duplicates: before, rejected: 0 });

  const after = new Database(dbPath, { readonly: true });
  expect(after.prepare("SELECT count(*) FROM traces").pluck().get()).toBe(N);
  expect(after.prepare("SELECT sum(trace_count) FROM runs").pluck().get()).toBe(N);
  expect(
    after
      .prepare("SELECT count(*) FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = 'named'")
      .pluck()
      .get(),
  ).toBe(N / 4);
  expect(inconsistencies(after)).toEqual([]);
  // The next ingest marked the killed one interrupted, and says so on its row (for /ingests).
  expect(after.prepare("SELECT status, error FROM ingest_batches ORDER BY id").all()).toEqual([
    {
      status: "interrupted",
      error: expect.stringMatching(
        new RegExp(`^its process \\(pid ${first.pid} on .+\\) ended before it finished`),
      ),
    },
    { status: "done", error: null },
  ]);
  after.close();
}, 180_000);
