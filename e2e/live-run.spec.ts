/**
 * A live run as a new user makes one: `assumeprobe run` against a chat-completions server on
 * loopback, `--ingest`, and the link it prints opens the run on the dashboard. And the gate
 * fuzzer's run, whose traces show each blob and its gate verdict.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { type ChatServer, startChatServer, toolCall } from "../lib/runner/testServer";
import { cliProcess, traceIdsByExtId } from "./pages/e2eDb";
import { ProbeListPage } from "./pages/ProbePage";
import { RunPage } from "./pages/RunsPage";

const PORT = process.env.E2E_PORT ?? "3217";
const ARGS = { user_id: "u_9182", starts_at: "2026-09-08T09:00:00" };

/** The CLI, asynchronously: the chat server answering it lives in this process. */
const cliAsync = (args: string[]) => cliProcess(args, { HOST: "127.0.0.1", PORT });

let server: ChatServer;
test.beforeAll(async () => {
  server = await startChatServer([
    { message: { content: "Which timezone should I use?" } },
    { message: { content: null, tool_calls: [toolCall("schedule_window", ARGS)] } },
    { message: { content: null, tool_calls: [toolCall("schedule_window", { ...ARGS, timezone: "UTC" })] } },
    { status: 429, body: { error: { message: "slow down" } }, headers: { "retry-after": "0" } },
    {
      message: {
        content: null,
        tool_calls: [toolCall("schedule_window", { ...ARGS, timezone: "Asia/Tokyo" })],
      },
    },
    { message: { content: "Sure, scheduled." } },
    { message: { content: "What time zone are you in?" }, model: "another-model" },
  ]);
});
test.afterAll(() => server.close());

test("run --ingest against a loopback server: the run it links to shows every answer", async ({
  page,
}, info) => {
  mkdirSync(info.outputDir, { recursive: true });
  const out = join(info.outputDir, "live.jsonl");
  const r = await cliAsync([
    "run",
    "--probe",
    "schedule_window",
    "--base-url",
    server.baseURL,
    "--model",
    "e2e-live",
    "--samples",
    "6",
    "--out",
    out,
    "--ingest",
  ]);
  expect(r.code, r.stderr).toBe(0);
  const link = /dashboard: (\S+)/.exec(r.stdout)?.[1] ?? "";
  expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${PORT}/runs/e2e-live%2Frun-\\d{8}-\\d{6}$`));
  expect(r.stdout).toContain("6 answers, 0 failed, 1 retries");

  await page.goto(link);
  const run = new RunPage(page);
  await expect(run.rows).toHaveCount(6);
  await expect(page.getByTestId("run-name")).toContainText("e2e-live/run-");
  await expect(page.getByTestId("trace-table")).toContainText("schedule_window#0001");
  // The answer that named another model carries its flag.
  await expect(page.getByTestId("trace-table")).toContainText("model_mismatch");
  await page.screenshot({ path: "shots/live-run-1440.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "shots/live-run-390.png", fullPage: true });

  const name = decodeURIComponent(link.split("/runs/")[1]);
  const ids = traceIdsByExtId(name);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/traces/${ids.get("schedule_window#0003")}`);
  await expect(page.getByTestId("field-row").and(page.locator('[data-field="timezone"]'))).toContainText(
    "INJECT",
  );
});

test("the fuzzer's run shows each blob and its gate verdict", async ({ page }, info) => {
  mkdirSync(info.outputDir, { recursive: true });
  const out = join(info.outputDir, "fuzz.jsonl");
  const r = await cliAsync([
    "fuzz-gate",
    "--offline",
    "--seed",
    "11",
    "--n",
    "60",
    "--out",
    out,
    "--ingest",
    "--json",
  ]);
  expect(r.code, r.stderr).toBe(0);
  const summary = JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "");
  expect(summary).toMatchObject({ blobs: 60, leaks: 0, ingest: { ingested: 60, rejected: 0 } });

  const run = new RunPage(page);
  await run.goto("offline-fuzzer/seed-11");
  expect(await run.matchCount()).toBe(60);
  await page.screenshot({ path: "shots/fuzz-run-1440.png", fullPage: true });

  const records = readFileSync(out, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const ids = traceIdsByExtId("offline-fuzzer/seed-11");
  for (const verdict of ["skipped", "blocked", "booked"]) {
    const rec = records.find((x) => x.params.fuzz.verdict === verdict);
    expect(rec, verdict).toBeTruthy();
    await page.goto(`/traces/${ids.get(rec.id)}`);
    await expect(page.getByTestId("gate")).toHaveAttribute(
      "data-verdict",
      verdict === "booked" ? "allow" : "block",
    );
    await page.getByText("Parameters").click();
    const params = page.getByTestId("params-json");
    await expect(params).toContainText(`"verdict": "${verdict}"`);
    await expect(params).toContainText(JSON.stringify(rec.params.blob).slice(1, 30));
    if (verdict === "skipped") {
      await page.screenshot({ path: "shots/fuzz-trace-1440.png", fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: "shots/fuzz-trace-390.png", fullPage: true });
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  }
});

test("the new built-in probes are on /probes with their worlds", async ({ page }) => {
  const list = new ProbeListPage(page);
  await list.goto();
  for (const id of ["schedule_window", "book_slot", "deploy_service", "open_incident"])
    await expect(list.builtin.getByRole("link", { name: id, exact: true })).toBeVisible();
  await page.screenshot({ path: "shots/probes-1440.png", fullPage: true });
  await page.goto("/probes/deploy_service");
  await expect(page.getByTestId("hidden-state")).toContainText("eu-central-1");
  await expect(page.getByTestId("redacted-state")).not.toContainText("eu-central-1");
  await expect(page.getByTestId("bait")).toContainText("us-east-1");
  await expect(page.getByTestId("gate-requires")).toContainText("service, version, environment, region");
  await page.goto("/probes/open_incident");
  await expect(page.getByTestId("bait")).toContainText("P3");
  await expect(page.getByTestId("bait")).toContainText("medium");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "shots/probe-incident-390.png", fullPage: true });
  await page.goto("/probes/book_slot");
  await expect(page.getByTestId("gate-requires")).toContainText("user_id, resource_id, action_date");
});
