import { mkdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { cliProcess, E2E_DB, queryOne } from "./pages/e2eDb";

/** `assumeprobe ingest FILE --json` as a child process of its own: resolves with its exit code and output. */
const ingestProcess = (file: string) => cliProcess(["ingest", file, "--json", "--no-progress"]);

/** Records of one run, with a model of its own (no other run shares it: the overview's trends and comparison stay the demo's). */
const records = (run: string, n: number) =>
  `${Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      id: `${run}-${i}`,
      run,
      model: `model-of-${run}`,
      response: {
        tool_call: {
          name: "schedule_window",
          arguments: { user_id: "u_9182", starts_at: "2026-09-08T09:00:00", timezone: i % 3 ? "UTC" : "x" },
        },
      },
    }),
  ).join("\n")}\n`;

const stored = (run: string) =>
  queryOne<{ n: number }>(
    "SELECT count(*) AS n FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = ?",
    run,
  )?.n ?? 0;

test("two command-line ingests and an upload at once: all succeed and every record is stored", async ({
  request,
}, info) => {
  test.setTimeout(240_000);
  mkdirSync(info.outputDir, { recursive: true });
  const N = 8000;
  const files = ["conc-cli-1", "conc-cli-2"].map((run) => {
    const f = join(info.outputDir, `${run}.jsonl`);
    writeFileSync(f, records(run, N));
    return f;
  });
  const [a, b, up] = await Promise.all([
    ingestProcess(files[0]),
    ingestProcess(files[1]),
    // Started while both ingests write.
    new Promise((r) => setTimeout(r, 1500)).then(() =>
      request.post("/api/upload?filename=conc-upload.jsonl", {
        data: records("conc-upload", N),
        timeout: 200_000,
      }),
    ),
  ]);
  for (const r of [a, b]) {
    expect(r.stderr).not.toMatch(/locked/);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "")).toMatchObject({ ingested: N, rejected: 0 });
  }
  const body = await up.json();
  expect(up.status(), JSON.stringify(body)).toBe(200);
  expect(body).toMatchObject({ records: N, ingested: N, rejected: 0, ingest: expect.any(Number) });
  expect([stored("conc-cli-1"), stored("conc-cli-2"), stored("conc-upload")]).toEqual([N, N, N]);
});

test("the ingests page: counts, status, runs and errors; a file of rejected lines makes no run", async ({
  page,
  request,
}, info) => {
  mkdirSync(info.outputDir, { recursive: true });
  const bad = "not json\n[1, 2]\n";
  const res = await request.post("/api/upload?filename=only-bad.jsonl", { data: bad });
  expect(res.status()).toBe(200);
  const summary = await res.json();
  expect(summary).toMatchObject({ records: 2, ingested: 0, rejected: 2, runs: [] });
  expect(queryOne("SELECT id FROM runs WHERE name = 'only-bad'")).toBeUndefined();

  // An ingest whose process died shows as interrupted.
  const db = new Database(E2E_DB);
  const dead = db
    .prepare(
      "INSERT INTO ingest_batches(origin, files, pid, host) VALUES ('cli', '[\"killed.jsonl\"]', 2147483646, ?) RETURNING id",
    )
    .pluck()
    .get(hostname()) as number;
  db.close();

  await page.goto("/");
  await page.screenshot({ path: "shots/overview-1440.png" });
  await page.getByTestId("recent-ingests").click();
  await expect(page).toHaveURL(/\/ingests$/);
  const rows = page.getByTestId("ingest-row");
  const upload = rows.filter({ hasText: "only-bad.jsonl" });
  await expect(upload).toContainText("2 records: 0 ingested, 0 already stored, 2 rejected");
  await expect(upload.getByTestId("ingest-status")).toHaveText("done");
  const killed = rows.filter({ hasText: "killed.jsonl" });
  await expect(killed.getByTestId("ingest-status")).toHaveText("interrupted");
  await expect(killed.getByTestId("ingest-error")).toContainText("ended before it finished");
  await page.screenshot({ path: "shots/ingests-1440.png", fullPage: true });

  await upload.getByText("the rejected records").click();
  await expect(page).toHaveURL(new RegExp(`/ingests/${summary.ingest}`));
  const errors = page.getByTestId("ingest-errors");
  await expect(errors).toContainText("only-bad.jsonl line 1: not JSON");
  await expect(errors).toContainText("line 2: the record is an array, not an object");
  await expect(errors).toContainText("(no run)");
  await page.screenshot({ path: "shots/ingest-1440.png", fullPage: true });
  // Uploaded again, the lines are listed with the new ingest, and the first keeps its own.
  const again = await (await request.post("/api/upload?filename=only-bad.jsonl", { data: bad })).json();
  expect(again.ingest).not.toBe(summary.ingest);
  for (const id of [summary.ingest, again.ingest]) {
    await page.goto(`/ingests/${id}`);
    await expect(page.getByTestId("ingest-errors").locator("li")).toHaveCount(2);
    await expect(page.getByTestId("ingest-errors")).toContainText("only-bad.jsonl line 1: not JSON");
  }

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/ingests");
  await page.screenshot({ path: "shots/ingests-390.png", fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.goto(`/ingests/${summary.ingest}`);
  await page.screenshot({ path: "shots/ingest-390.png", fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // The upload page, which links here, fits too (the header wraps on a phone).
  await page.goto("/upload");
  await page.screenshot({ path: "shots/upload-390.png", fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expect(page.getByRole("navigation", { name: "Main" }).getByText("Ingests")).toBeInViewport();
  expect(dead).toBeGreaterThan(0);
});

test("an unknown or malformed ingest id answers 404", async ({ request }) => {
  expect((await request.get("/ingests/999999999")).status()).toBe(404);
  expect((await request.get("/ingests/abc")).status()).toBe(404);
});
