import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect, test } from "@playwright/test";
import { wilson } from "../lib/stats";
import { cli, E2E_DB, openReadOnly, queryOne } from "./pages/e2eDb";
import { RunsOverviewPage } from "./pages/RunsPage";

const TINY = "e2e-tiny-run";
const HERON = "heron-mini/nightly-2026-11-29";

test.beforeAll(() => {
  // Four traces, two of them inventing UTC: 50% INJECT, but from four samples (low end 15%).
  if (queryOne("SELECT 1 FROM runs WHERE name = ?", TINY)) return;
  const file = join(dirname(E2E_DB), "tiny.jsonl");
  const call = (tz?: string) => ({
    tool_calls: [
      {
        name: "schedule_window",
        arguments: { user_id: "u_9182", starts_at: "2026-09-08T09:00:00", ...(tz ? { timezone: tz } : {}) },
      },
    ],
  });
  const lines = [call("UTC"), call("UTC"), call(), call()].map((response, i) =>
    JSON.stringify({ id: `tiny-${i}`, response, started_at: "2026-11-20T00:00:00Z" }),
  );
  writeFileSync(file, `${lines.join("\n")}\n`);
  cli(["ingest", file, "--run", TINY, "--model", "e2e-tiny-model", "--no-progress"]);
});

/**
 * Per run, the low end of the 95% interval of its INJECT rate on a field, from the database: the
 * rates leave an agent's steps out (only each turn's counted generation counts).
 */
function lowEnds(field: string): Map<string, number> {
  const db = openReadOnly();
  try {
    const rows = db
      .prepare(
        `SELECT r.name AS name, count(json_extract(t.labels, '$.' || ?)) AS n,
                sum(json_extract(t.labels, '$.' || ?) = 'INJECT') AS k
         FROM traces t JOIN runs r ON r.id = t.run_id WHERE t.agent_step = 0 GROUP BY r.id`,
      )
      .all(field, field) as { name: string; n: number; k: number | null }[];
    return new Map(rows.filter((r) => r.n > 0).map((r) => [r.name, wilson(r.k ?? 0, r.n).low]));
  } finally {
    db.close();
  }
}

test.describe("sorting by INJECT rate", () => {
  test("ranks by the low end of the 95% interval, so 2 of 4 does not outrank larger runs, and says so", async ({
    page,
  }) => {
    const overview = new RunsOverviewPage(page);
    await overview.goto();
    const option = page.getByTestId("sort-select").locator('option[value="inject"]');
    await expect(option).toContainText("95% interval");
    await overview.filter("", "inject");
    await expect(page.getByTestId("sort-note")).toContainText("low end of the 95% interval");
    const names = await overview.rows.evaluateAll((rows) =>
      rows.map((r) => r.getAttribute("data-run") ?? ""),
    );
    // The tiny run's point rate (50%) beats heron's (28%), its low end (15%) does not.
    expect(names.indexOf(TINY)).toBeGreaterThan(names.indexOf(HERON));
    const low = lowEnds("timezone");
    const keys = names.filter((n) => low.has(n)).map((n) => low.get(n) ?? 0);
    expect(keys.length).toBe(low.size);
    expect(keys).toEqual([...keys].sort((a, b) => b - a));
    await expect(overview.row(TINY).getByTestId("sort-key")).toContainText(
      "INJECT at least 15.0% on timezone",
    );
  });

  test("sorts on the field chosen, not the first one", async ({ page }) => {
    const overview = new RunsOverviewPage(page);
    await overview.goto("sort=inject&field=severity");
    await expect(page.getByTestId("sort-field")).toHaveValue("severity");
    await expect(page.getByTestId("sort-note")).toContainText("severity");
    const names = await overview.rows.evaluateAll((rows) =>
      rows.map((r) => r.getAttribute("data-run") ?? ""),
    );
    const low = lowEnds("severity");
    const keys = names.filter((n) => low.has(n)).map((n) => low.get(n) ?? 0);
    expect(keys.length).toBe(low.size);
    expect(keys).toEqual([...keys].sort((a, b) => b - a));
    // Runs that do not probe severity (When2Call's) come last.
    const without = names.filter((n) => !low.has(n));
    expect(without).toContain("when2call-calibration");
    expect(names.slice(names.length - without.length)).toEqual(without);
    // The order differs from the timezone order (the demo's models differ on the two fields).
    await overview.goto("sort=inject&field=timezone");
    const byTimezone = await overview.rows.evaluateAll((rows) =>
      rows.map((r) => r.getAttribute("data-run") ?? ""),
    );
    expect(byTimezone.slice(0, 5)).not.toEqual(names.slice(0, 5));
  });
});

test("the probe filter groups probes by where they came from; a group filters to its runs", async ({
  page,
}) => {
  const overview = new RunsOverviewPage(page);
  await overview.goto();
  const select = page.getByTestId("probe-filter");
  // 300 When2Call probes are one choice, not 300.
  expect(await select.locator("option").count()).toBeLessThan(20);
  // (The other groups are the built-in probes and the probe files other tests and the demo add.)
  const w2c = select.locator('optgroup[label^="When2Call · run when2call-calibration"]');
  await expect(w2c).toHaveCount(1);
  await expect(w2c.locator("option")).toHaveText(["all 300 probes"]);
  await select.selectOption("group:run:when2call-calibration");
  await page.getByTestId("runs-filter").getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/probe=group%3Arun%3Awhen2call-calibration/);
  await expect(overview.rows).toHaveCount(1);
  await expect(overview.row("when2call-calibration")).toBeVisible();
  // One probe still filters on its own.
  await overview.goto("probe=schedule_window");
  await expect(overview.row("when2call-calibration")).toHaveCount(0);
  await expect(overview.row(HERON)).toBeVisible();
});

test.describe("the trend charts", () => {
  test("sit above the runs, where they are seen, with interval bands and a legend", async ({ page }) => {
    const overview = new RunsOverviewPage(page);
    await overview.goto();
    const section = page.getByTestId("trend-section");
    const top = (await section.boundingBox())?.y ?? Number.POSITIVE_INFINITY;
    expect(top).toBeLessThan(900);
    expect(top).toBeLessThan((await page.getByTestId("runs-table").boundingBox())?.y ?? 0);
    await expect(overview.trendCharts).toHaveCount(4);
    // A band per series in every chart.
    expect(await overview.trendCharts.first().locator(".trend-band path").count()).toBeGreaterThanOrEqual(5);
    // ASK and OMIT differ by more than a hue: a dash pattern and a marker, named in the legend.
    const legend = page.getByTestId("trend-legend");
    const dash = (l: string) => legend.locator(`[data-label="${l}"]`).getAttribute("data-dash");
    expect(await dash("ASK")).not.toBe(await dash("OMIT"));
    await expect(legend).toContainText("95% interval");
  });

  test("points open their run, by mouse and by keyboard", async ({ page }) => {
    const overview = new RunsOverviewPage(page);
    await overview.goto();
    const chart = page.locator('[data-testid="trend-chart"][data-model="plover-lite-2"]');
    const point = chart.getByTestId("trend-point").last();
    const run = await point.getAttribute("data-run");
    expect(run).toBe("plover-lite-2/nightly-2026-11-29");
    await expect(point).toHaveAttribute("aria-label", /INJECT \d+% of \d+/);
    await point.click();
    await expect(page).toHaveURL(`/runs/${encodeURIComponent(run ?? "")}`);
    await overview.goto();
    await chart.getByTestId("trend-point").first().focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(`/runs/${encodeURIComponent("plover-lite-2/nightly-2026-11-25")}`);
  });
});
