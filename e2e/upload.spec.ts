import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
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
  // The summary links to its ingest, which lists it with its rejected line.
  await expect(summary.getByTestId("summary-ingest")).toHaveAttribute("href", /^\/ingests\/\d+$/);
  await page.screenshot({ path: "shots/upload-1440.png", fullPage: true });

  await page.getByTestId("upload-submit").click();
  await expect(summary).toContainText("3 already stored");
  await expect(summary).toContainText("0 ingested");
  await expect(page.getByTestId("upload-errors")).toContainText("line 3: not JSON");
  // A re-upload still links to its run.
  await expect(summary.getByTestId("summary-run")).toHaveAttribute("href", "/runs/e2e-upload");
  await expect(summary).toContainText("0 new traces");

  await page.goto("/runs/e2e-upload");
  await expect(page.getByTestId("trace-row")).toHaveCount(3);
  await expect(page.getByTestId("rejected-lines")).toContainText("line 3");
  // Each rejected line opens to show its stored text.
  const raw = page.getByTestId("rejected-lines").getByText("{this is not json");
  await expect(raw).toBeHidden();
  await page.getByTestId("rejected-lines").getByText("line 3").click();
  await expect(raw).toBeVisible();
});

test("a file past the upload limit gets a clear message, in the browser and from the server", async ({
  page,
  request,
}, info) => {
  // The e2e server runs with ASSUMEPROBE_UPLOAD_MAX_MB=16.
  mkdirSync(info.outputDir, { recursive: true });
  const big = join(info.outputDir, "too-big.jsonl");
  const line = `${JSON.stringify({ response: { text: "x".repeat(1000) } })}\n`;
  const body = line.repeat(Math.ceil((16 * 1048576 + 1) / line.length));
  writeFileSync(big, body);
  await page.goto("/upload");
  await page.getByTestId("file-input").setInputFiles(big);
  await expect(page.getByTestId("too-big")).toContainText("over the upload limit of 16 MB");
  await expect(page.getByTestId("upload-submit")).toBeDisabled();

  const res = await request.post("/api/upload?filename=too-big.jsonl", { data: body });
  expect(res.status()).toBe(413);
  expect((await res.json()).error).toMatch(/over the upload limit of 16 MB/);
});

test("a gzip file cut off partway: the summary of what was kept, with why the upload stopped", async ({
  page,
  request,
}, info) => {
  mkdirSync(info.outputDir, { recursive: true });
  const lines = Array.from({ length: 2000 }, (_, i) =>
    JSON.stringify({ id: `cut-${i}`, response: { text: `Which timezone should I use? (${i})` } }),
  );
  const zipped = gzipSync(`${lines.join("\n")}\n`);
  const cut = zipped.subarray(0, Math.floor(zipped.length / 2));
  const file = join(info.outputDir, "cut.jsonl.gz");
  writeFileSync(file, cut);
  await page.goto("/upload");
  // The drop zone is the one tab stop for the file: the next Tab reaches the run name.
  await page.getByTestId("drop-zone").focus();
  await page.keyboard.press("Tab");
  await expect(page.getByTestId("run-input")).toBeFocused();
  await page.getByTestId("file-input").setInputFiles(file);
  await page.getByTestId("run-input").fill("e2e-cut");
  await page.getByTestId("upload-submit").click();
  await expect(page.getByTestId("upload-stopped")).toContainText(
    "stopped early: not valid gzip: unexpected end of file (after line",
  );
  await expect(page.getByTestId("upload-stopped")).toContainText("the records before it were kept");
  const kept = queryOne<{ n: number }>("SELECT trace_count AS n FROM runs WHERE name = 'e2e-cut'")?.n ?? 0;
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(2000);
  await expect(page.getByTestId("upload-summary")).toContainText(`${kept.toLocaleString("en-US")} ingested`);
  await expect(page.getByTestId("summary-run")).toHaveAttribute("href", "/runs/e2e-cut");

  // The endpoint answers 400 with the same summary.
  const res = await request.post("/api/upload?filename=cut.jsonl.gz&run=e2e-cut", { data: cut });
  expect(res.status()).toBe(400);
  const body = await res.json();
  expect(body.error).toMatch(/^not valid gzip: .* \(after line \d+\); the records before it were kept$/);
  expect(body.records).toBe(body.ingested + body.duplicates + body.rejected);
  expect(body.duplicates).toBeGreaterThan(0);
  expect(body.unreadable).toEqual([
    { file: "cut.jsonl.gz", reason: expect.any(String), lines: expect.any(Number) },
  ]);
});

test("the upload endpoint says what is wrong with its parameters", async ({ request }) => {
  const noName = await request.post("/api/upload", { data: "{}" });
  expect(noName.status()).toBe(400);
  expect((await noName.json()).error).toContain("filename");
  const badProbe = await request.post("/api/upload?filename=a.jsonl&probe=no_such_probe", { data: "{}" });
  expect(badProbe.status()).toBe(400);
  expect((await badProbe.json()).error).toContain('unknown probe "no_such_probe"');
});

test("a file over 10 MB arrives whole: every record is stored", async ({ page }, info) => {
  test.setTimeout(180_000);
  mkdirSync(info.outputDir, { recursive: true });
  const file = join(info.outputDir, "big-upload.jsonl");
  // About 12 MB: past the 10 MB a proxy keeps of a request body, under the server's 16 MB limit.
  const pad = "p".repeat(900);
  const N = 12_000;
  const lines = Array.from({ length: N }, (_, i) =>
    JSON.stringify({ id: `big-${i}`, response: { text: `Which timezone should I use? ${pad} ${i}` } }),
  );
  writeFileSync(file, `${lines.join("\n")}\n`);
  await page.goto("/upload");
  await page.getByTestId("file-input").setInputFiles(file);
  await page.getByTestId("run-input").fill("e2e-big-upload");
  await page.getByTestId("upload-submit").click();
  const summary = page.getByTestId("upload-summary");
  await expect(summary).toContainText(`${N.toLocaleString("en-US")} records`, { timeout: 120_000 });
  await expect(summary).toContainText(`${N.toLocaleString("en-US")} ingested`);
  await expect(page.getByTestId("upload-stopped")).toHaveCount(0);
  expect(queryOne<{ n: number }>("SELECT trace_count AS n FROM runs WHERE name = 'e2e-big-upload'")?.n).toBe(
    N,
  );
  // The last record is the one a cut-off body would have lost.
  expect(
    queryOne<{ n: number }>(
      "SELECT count(*) AS n FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = 'e2e-big-upload' AND t.ext_id = ?",
      `big-${N - 1}`,
    )?.n,
  ).toBe(1);
});
