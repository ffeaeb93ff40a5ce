import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect, test } from "@playwright/test";
import { cli, E2E_DB, queryOne } from "./pages/e2eDb";

const T28 = "tern-7b-instruct/nightly-2026-11-28";
const T29 = "tern-7b-instruct/nightly-2026-11-29";
const compare = (a: string, b: string, extra = "") =>
  `/compare?${new URLSearchParams({ a, b })}${extra ? `&${extra}` : ""}`;

test.beforeAll(() => {
  // Two small runs with the same INJECT rate (2 of 10, 4 of 20) and ten paired trace ids.
  if (queryOne("SELECT 1 FROM runs WHERE name = 'e2e-same-a'")) return;
  const line = (i: number, inject: boolean) =>
    JSON.stringify({
      id: `same-${i}`,
      // Older than the demo's nights, so the overview's default comparison stays theirs.
      started_at: "2026-11-01T00:00:00Z",
      response: {
        tool_calls: [
          {
            name: "schedule_window",
            arguments: {
              user_id: "u_9182",
              starts_at: "2026-09-08T09:00:00",
              ...(inject ? { timezone: "UTC" } : {}),
            },
          },
        ],
      },
    });
  for (const [run, n] of [
    ["e2e-same-a", 10],
    ["e2e-same-b", 20],
  ] as const) {
    const file = join(dirname(E2E_DB), `${run}.jsonl`);
    writeFileSync(file, `${Array.from({ length: n }, (_, i) => line(i, i % 5 === 0)).join("\n")}\n`);
    // A model of its own each: no trend chart or default comparison of the overview picks them up.
    cli(["ingest", file, "--run", run, "--model", `${run}-model`, "--no-progress"]);
  }
});

test("/compare with no runs named shows the form, not a 404", async ({ page }) => {
  const res = await page.goto("/compare");
  expect(res?.status()).toBe(200);
  await expect(page.getByTestId("compare-start")).toBeVisible();
  await expect(page.getByTestId("not-found")).toHaveCount(0);
  const form = page.getByTestId("compare-form");
  await expect(form.locator('select[name="a"]')).toHaveValue("plover-lite-2/nightly-2026-11-28");
  await form.locator('select[name="a"]').selectOption(T28);
  await form.locator('select[name="b"]').selectOption(T29);
  await form.getByRole("button", { name: "Compare" }).click();
  await expect(page.getByTestId("compare-a")).toHaveText(T28);
  // One run named: the form, with it chosen.
  await page.goto(`/compare?a=${encodeURIComponent(T28)}`);
  await expect(page.getByTestId("one-run")).toContainText(T28);
  await expect(page.getByTestId("compare-form").locator('select[name="a"]')).toHaveValue(T28);
  // Unknown names still answer 404.
  expect((await page.goto(compare("no-such-run", T29)))?.status()).toBe(404);
});

test("comparing a run with itself says so", async ({ page }) => {
  const res = await page.goto(compare(T29, T29));
  expect(res?.status()).toBe(200);
  await expect(page.getByTestId("same-run")).toContainText("compared with itself");
  await expect(page.getByTestId("change-table")).toHaveCount(0);
  const form = page.getByTestId("compare-form");
  expect(await form.locator('select[name="a"]').inputValue()).not.toBe(
    await form.locator('select[name="b"]').inputValue(),
  );
});

test("no change reads 0.0 pt, never −0.0 pt", async ({ page }) => {
  await page.goto(compare("e2e-same-a", "e2e-same-b"));
  const delta = page.locator(
    '[data-testid="change-table"][data-field="timezone"] [data-label="INJECT"] [data-testid="delta"]',
  );
  await expect(delta).toHaveText("0.0 pt");
  await expect(page.locator("body")).not.toContainText("−0.0");
  await expect(page.locator("body")).not.toContainText("± 0.0");
});

test("matrix cells list their traces; a legend and symbols carry what the colours mean", async ({ page }) => {
  await page.goto(compare(T28, T29));
  await expect(page.getByTestId("matrix-legend")).toContainText("moved into INJECT (worse)");
  const matrix = page.locator('[data-testid="transition-matrix"][data-field="timezone"]');
  // Every red or green cell also has its symbol.
  for (const cell of await matrix.locator('[data-testid="matrix-cell"][data-kind="worse"] a').all())
    await expect(cell).toContainText("▲");
  for (const cell of await matrix.locator('[data-testid="matrix-cell"][data-kind="better"] a').all())
    await expect(cell).toContainText("▼");
  const cell = matrix.locator('[data-testid="matrix-cell"][data-from="INJECT"][data-to="ASK"] a');
  const n = Number(((await cell.textContent()) ?? "").replace(/[^0-9]/g, ""));
  expect(n).toBeGreaterThan(0);
  await cell.click();
  await expect(page).toHaveURL(/field=timezone&from=INJECT&to=ASK/);
  await expect(page.getByTestId("changed-title")).toContainText(`went INJECT → ASK: ${n}`);
  const rows = page.getByTestId("changed-trace");
  await expect(rows).toHaveCount(Math.min(n, 50));
  for (const row of await rows.all()) {
    await expect(row.locator("td").nth(1).locator('[data-label="INJECT"]').first()).toBeVisible();
    await expect(row.locator("td").nth(2).locator('[data-label="ASK"]').first()).toBeVisible();
  }
  // A diagonal cell lists the traces that stayed.
  await matrix.locator('[data-testid="matrix-cell"][data-from="ASK"][data-to="ASK"] a').click();
  await expect(page.getByTestId("changed-title")).toContainText("stayed ASK");
  // Each side links to its trace.
  const href = await page
    .getByTestId("changed-trace")
    .first()
    .locator("td")
    .nth(2)
    .locator("a")
    .getAttribute("href");
  expect(href).toMatch(/^\/traces\/\d+$/);
});

test("the changed traces page beyond the first 50", async ({ page }) => {
  await page.goto(compare(T28, T29));
  const total = Number(
    ((await page.getByTestId("changed-title").textContent()) ?? "").replace(/[^0-9]/g, ""),
  );
  expect(total).toBeGreaterThan(100);
  await expect(page.getByTestId("changed-position")).toHaveText(`1–50 of ${total}`);
  const first = await page.getByTestId("changed-trace").first().locator("td").first().textContent();
  await page.getByTestId("changed-next").click();
  await expect(page.getByTestId("changed-position")).toHaveText(`51–100 of ${total}`);
  await expect(page.getByTestId("changed-trace")).toHaveCount(50);
  await page.getByTestId("changed-next").click();
  await expect(page.getByTestId("changed-position")).toHaveText(`101–${total} of ${total}`);
  await expect(page.getByTestId("changed-trace")).toHaveCount(total - 100);
  await expect(page.getByTestId("changed-next")).toHaveCount(0);
  await page.getByTestId("changed-prev").click();
  await expect(page.getByTestId("changed-position")).toHaveText(`51–100 of ${total}`);
  await page.getByTestId("changed-prev").click();
  await expect(page.getByTestId("changed-position")).toHaveText(`1–50 of ${total}`);
  await expect(page.getByTestId("changed-trace").first().locator("td").first()).toHaveText(first ?? "");
});
