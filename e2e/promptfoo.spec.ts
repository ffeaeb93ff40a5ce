import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { ORIGINAL_OF } from "../db/queries/originals";
import { queryOne } from "./pages/e2eDb";

// A results file promptfoo 0.121.20 wrote itself (scripts/capture-promptfoo.ts), uploaded as a new
// user would: no format, run, model or probe. Its results that call the tool find their probe by
// the call; its texts need one chosen. Other specs add probes offering schedule_window, so this
// spec renames the file's tool to one of its own and pastes a probe offering only that tool: the
// upload then resolves the probe however many other specs ran first.
// Expected calls and texts written by hand from the file.
const FILE = join(import.meta.dirname, "..", "fixtures", "testdata", "promptfoo", "eval-results.json");
const PROBE = join(import.meta.dirname, "..", "fixtures", "probes", "schedule_window.json");
const TOOL = "pf_e2e_window";
const TEXT = readFileSync(FILE, "utf8").replaceAll("schedule_window", TOOL);

test("uploads a promptfoo results file with no flags: read as promptfoo, the call on its trace page", async ({
  page,
  request,
}) => {
  const probe = JSON.parse(readFileSync(PROBE, "utf8").replaceAll("schedule_window", TOOL));
  probe.id = "e2e_pf_window";
  await page.goto("/probes/paste");
  await page.getByTestId("paste-json").fill(JSON.stringify(probe));
  await page.getByTestId("paste-save").click();
  await expect(page).toHaveURL(/\/probes\/e2e_pf_window/);

  await page.goto("/upload");
  await page
    .getByTestId("file-input")
    .setInputFiles({ name: "eval-results.json", mimeType: "application/json", buffer: Buffer.from(TEXT) });
  await page.getByTestId("upload-submit").click();
  const summary = page.getByTestId("upload-summary");
  await expect(summary.getByTestId("summary-format")).toContainText("Read as promptfoo results");
  await expect(summary).toContainText("6 records");
  await expect(summary).toContainText("4 ingested");
  await expect(summary).toContainText("2 rejected");
  await expect(summary).toContainText("results.results[2]");
  // One run per model: the OpenAI provider's in the file's run, the HTTP provider's in RUN/MODEL.
  const runs = summary.getByTestId("summary-run");
  await expect(runs).toHaveCount(2);
  await expect(runs.first()).toHaveAttribute("href", "/runs/eval-results");
  await expect(runs.nth(1)).toHaveText("eval-results/http://127.0.0.1:34329/v1/chat/completions");
  await page.screenshot({ path: "shots/upload-promptfoo-1440.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 900 });
  await page.screenshot({ path: "shots/upload-promptfoo-390.png", fullPage: true });

  const first = queryOne<{ id: number }>(
    "SELECT t.id FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = 'eval-results' ORDER BY t.line LIMIT 1",
  );
  expect(first).toBeTruthy();
  await page.goto(`/traces/${first?.id}`);
  const call = page.getByTestId("tool-call");
  await expect(call).toHaveCount(1);
  await expect(call.getByTestId("call-name")).toHaveText(TOOL);
  await expect(call).toContainText("Asia/Tokyo");
  await expect(call).toContainText("2026-09-08T09:00:00");
  // The original is the result's own bytes in the file.
  const original = await (await request.get(`/traces/${first?.id}/record`)).text();
  expect(JSON.parse(original).id).toBe("7c3346c5-82ec-4e83-aa0d-1c0f76f14f40");
  expect(TEXT.includes(original)).toBe(true);
});

test("an upload of results an older promptfoo wrote with API keys stores and answers none of them", async ({
  request,
}) => {
  const KEY = "sk-e2e-LEAK-9090";
  const doc = JSON.parse(readFileSync(FILE, "utf8"));
  for (const res of doc.results.results)
    res.provider.config = { apiKey: KEY, headers: { Authorization: KEY } };
  delete doc.results.results[0].provider.id;
  const res = await request.post(
    "/api/upload?filename=old-promptfoo.json&probe=schedule_window&run=e2e-pf-old",
    {
      data: JSON.stringify(doc, null, 2),
    },
  );
  const text = await res.text();
  expect(text).not.toContain(KEY);
  const summary = JSON.parse(text);
  expect(summary).toMatchObject({ records: 6, ingested: 5, rejected: 1 });
  expect(summary.errors[0]).toMatchObject({ path: "results.results[0]" });
  expect(
    queryOne<{ n: number }>(
      `SELECT count(*) AS n FROM traces WHERE instr(CAST(${ORIGINAL_OF} AS TEXT), ?) > 0`,
      KEY,
    )?.n,
  ).toBe(0);
  expect(
    queryOne<{ n: number }>(
      "SELECT count(*) AS n FROM ingest_errors WHERE instr(CAST(raw AS TEXT), ?) > 0",
      KEY,
    )?.n,
  ).toBe(0);
  expect(
    queryOne<{ n: number }>(
      `SELECT count(*) AS n FROM traces WHERE instr(CAST(${ORIGINAL_OF} AS TEXT), '[REDACTED]') > 0`,
    )?.n,
  ).toBe(5);
});
