import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { queryOne } from "./pages/e2eDb";

const ARGS = { user_id: "u_9182", starts_at: "2026-09-08T09:00:00" };
const LINES = [
  JSON.stringify({ id: "u-1", response: { text: "Which timezone should I use?" } }),
  JSON.stringify({
    id: "u-2",
    response: { tool_call: { name: "schedule_window", arguments: { ...ARGS, timezone: "UTC" } } },
  }),
  "{this is not json",
  JSON.stringify({ id: "u-3", response: { tool_call: { name: "schedule_window", arguments: ARGS } } }),
];

test("uploads a file through the same ingest path: bad lines reported by number, good ones kept, re-upload adds nothing", async ({
  page,
}, info) => {
  mkdirSync(info.outputDir, { recursive: true });
  const file = join(info.outputDir, "upload-e2e.jsonl");
  writeFileSync(file, `${LINES.join("\n")}\n`);
  await page.goto("/upload");
  await page.getByTestId("file-input").setInputFiles(file);
  await expect(page.getByTestId("drop-zone")).toContainText("upload-e2e.jsonl");
  await page.getByTestId("run-input").fill("e2e-upload");
  await page.getByTestId("upload-submit").click();
  const summary = page.getByTestId("upload-summary");
  await expect(summary).toContainText("4 records");
  await expect(summary).toContainText("3 ingested");
  await expect(page.getByTestId("upload-errors")).toContainText("upload-e2e.jsonl line 3: not JSON");
  expect(queryOne<{ n: number }>("SELECT trace_count AS n FROM runs WHERE name = 'e2e-upload'")?.n).toBe(3);
  expect(queryOne<{ n: number }>("SELECT rejected_count AS n FROM runs WHERE name = 'e2e-upload'")?.n).toBe(
    1,
  );
  await expect(summary.getByTestId("summary-run")).toHaveAttribute("href", "/runs/e2e-upload");

  await page.getByTestId("upload-submit").click();
  await expect(summary).toContainText("3 already stored");
  await expect(summary).toContainText("0 ingested");
  await expect(page.getByTestId("upload-errors")).toContainText("line 3: not JSON");

  await page.goto("/runs/e2e-upload");
  await expect(page.getByTestId("trace-row")).toHaveCount(3);
  await expect(page.getByTestId("rejected-lines")).toContainText("line 3");
});

test("a file past the upload limit gets a clear message, in the browser and from the server", async ({
  page,
  request,
}, info) => {
  // The e2e server runs with ASSUMEPROBE_UPLOAD_MAX_MB=1.
  mkdirSync(info.outputDir, { recursive: true });
  const big = join(info.outputDir, "too-big.jsonl");
  const line = `${JSON.stringify({ response: { text: "x".repeat(1000) } })}\n`;
  writeFileSync(big, line.repeat(1200));
  await page.goto("/upload");
  await page.getByTestId("file-input").setInputFiles(big);
  await expect(page.getByTestId("too-big")).toContainText("over the upload limit of 1.0 MB");
  await expect(page.getByTestId("upload-submit")).toBeDisabled();

  const res = await request.post("/api/upload?filename=too-big.jsonl", { data: line.repeat(1200) });
  expect(res.status()).toBe(413);
  expect((await res.json()).error).toMatch(/over the upload limit of 1 MB/);
});

test("the upload endpoint says what is wrong with its parameters", async ({ request }) => {
  const noName = await request.post("/api/upload", { data: "{}" });
  expect(noName.status()).toBe(400);
  expect((await noName.json()).error).toContain("filename");
  const badProbe = await request.post("/api/upload?filename=a.jsonl&probe=no_such_probe", { data: "{}" });
  expect(badProbe.status()).toBe(400);
  expect((await badProbe.json()).error).toContain('unknown probe "no_such_probe"');
});
