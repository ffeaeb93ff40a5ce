/**
 * A run killed with SIGKILL loses nothing it had received, and `--resume` asks only what is missing:
 * every sample ends up in the file exactly once, and once ingested, in the run exactly once.
 */
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ChatServer, startChatServer, toolCall } from "../runner/testServer";
import { cliSandbox, runCli } from "./testCli";

const ROOT = join(import.meta.dirname, "..", "..");
const N = 40;
const box = cliSandbox("run-kill");
const out = join(box.dir, "killed.jsonl");
let server: ChatServer;
beforeAll(async () => {
  // Each answer takes 40 ms: the run is still going when it is killed.
  server = await startChatServer(
    [],
    () => ({
      message: {
        content: null,
        tool_calls: [toolCall("schedule_window", { user_id: "u_9182", starts_at: "2026-09-08T09:00:00" })],
      },
    }),
    { delayMs: 40 },
  );
});
afterAll(async () => {
  await server.close();
  box.cleanup();
});

const lines = () =>
  existsSync(out)
    ? readFileSync(out, "utf8")
        .split("\n")
        .filter((l) => l !== "")
    : [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ARGS = ["--probe", "schedule_window", "deploy_service", "--samples", String(N / 2), "--model", "m"];

it("SIGKILL mid-run, then --resume: every sample exactly once", async () => {
  const child = spawn(
    process.execPath,
    [
      join(ROOT, "bin", "assumeprobe.js"),
      "run",
      ...ARGS,
      "--base-url",
      server.baseURL,
      "--run",
      "killed",
      "--out",
      out,
      "--concurrency",
      "2",
    ],
    { cwd: ROOT, env: { ...process.env, ASSUMEPROBE_DB: box.dbPath }, stdio: "ignore" },
  );
  const exited = new Promise<string | null>((resolve) =>
    child.on("exit", (_code, signal) => resolve(signal)),
  );
  let done = false;
  exited.then(() => {
    done = true;
  });
  while (!done && lines().length < 6) await sleep(10);
  expect(done, "the run ended before it could be killed").toBe(false);
  child.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");

  // Everything received is there, whole.
  const kept = lines();
  expect(kept.length).toBeGreaterThanOrEqual(6);
  expect(kept.length).toBeLessThan(N);
  const keptIds = kept.map((l) => JSON.parse(l).id);
  expect(new Set(keptIds).size).toBe(keptIds.length);

  // A kill in the middle of a write: the last line cut off.
  const cut = JSON.stringify({
    schema: "assumeprobe/trace@1",
    id: "deploy_service#0020",
    run: "killed",
    model: "m",
  });
  appendFileSync(out, cut.slice(0, 40));

  const before = server.requests.length;
  const resumed = await runCli(
    ["run", ...ARGS, "--base-url", server.baseURL, "--out", out, "--resume", "--ingest", "--json"],
    { ASSUMEPROBE_DB: box.dbPath },
  );
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(resumed.stderr).toContain(
    `line ${kept.length + 1} was cut off; it is removed and its sample asked again`,
  );
  const summary = JSON.parse(resumed.lines.at(-1) ?? "");
  expect(summary).toMatchObject({ run: "killed", answers: N - kept.length, skipped: kept.length, failed: 0 });
  expect(server.requests.length - before).toBe(N - kept.length);

  // The cut line is gone from the file: every line is a whole record.
  const all = lines();
  expect(all).toHaveLength(N);
  expect(all.slice(0, kept.length)).toEqual(kept);
  const ids = all.map((l) => JSON.parse(l).id);
  const want = [
    ...Array.from({ length: N / 2 }, (_, i) => `schedule_window#${String(i + 1).padStart(4, "0")}`),
    ...Array.from({ length: N / 2 }, (_, i) => `deploy_service#${String(i + 1).padStart(4, "0")}`),
  ];
  expect([...ids].sort()).toEqual([...want].sort());

  // Ingested: every sample once, nothing rejected; a later ingest of the file exits 0 as well.
  expect(summary.ingest).toMatchObject({ records: N, ingested: N, rejected: 0 });
  expect(summary.ingest.errors).toEqual([]);
  const later = await runCli(["ingest", out, "--json", "--no-progress"], { ASSUMEPROBE_DB: box.dbPath });
  expect([later.code, later.stderr]).toEqual([0, ""]);
  expect(JSON.parse(later.lines.at(-1) ?? "")).toMatchObject({ records: N, duplicates: N, rejected: 0 });
  const exp = await runCli(["export", "killed"], { ASSUMEPROBE_DB: box.dbPath });
  expect(exp.lines.map((l) => JSON.parse(l).id).sort()).toEqual([...want].sort());
}, 120_000);
