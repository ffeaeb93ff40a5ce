import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { cli, queryOne } from "./pages/e2eDb";
import { RunPage, RunsOverviewPage } from "./pages/RunsPage";

const TERN = "tern-7b-instruct/nightly-2026-11-29";
const PLOVER = "plover-lite-2/nightly-2026-11-29";

test.describe("runs overview", () => {
  test("lists the demo runs with INJECT first, each rate with its sample size", async ({ page }) => {
    const overview = new RunsOverviewPage(page);
    await overview.goto();
    await expect(overview.row(TERN)).toBeVisible();
    await expect(overview.row("when2call-calibration")).toBeVisible();
    const headers = page.getByTestId("runs-table").locator("thead th");
    await expect(headers.nth(4)).toContainText("INJECT");
    // The tern run's timezone INJECT cell shows k/n from the database.
    const want = queryOne<{ n: number; k: number }>(
      `SELECT sum(CASE WHEN json_extract(labels, '$.timezone') = 'INJECT' THEN 1 ELSE 0 END) AS k, count(*) AS n
       FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = ?`,
      TERN,
    );
    expect(want?.n).toBeGreaterThan(0);
    await expect(overview.row(TERN).getByTestId("rate-INJECT").first()).toContainText(
      `${want?.k.toLocaleString("en-US")}/${want?.n.toLocaleString("en-US")}`,
    );
  });

  test("marks runs whose payloads named another model, and draws a trend per model", async ({ page }) => {
    const overview = new RunsOverviewPage(page);
    await overview.goto();
    await expect(overview.row(PLOVER).getByTestId("mismatch-marker")).toContainText("3");
    await expect(overview.row(TERN).getByTestId("mismatch-marker")).toHaveCount(0);
    // One chart per model with runs over several nights: the demo's four (other specs' runs may
    // add models of their own).
    for (const model of ["heron-mini", "kestrel-34b", "plover-lite-2", "tern-7b-instruct"])
      await expect(overview.trendCharts.filter({ hasText: model })).toHaveCount(1);
    await expect(
      overview.trendCharts.first().locator('svg.recharts-surface[role="application"]'),
    ).toBeVisible();
  });

  test("filters by model and sorts by INJECT rate", async ({ page }) => {
    const overview = new RunsOverviewPage(page);
    await overview.goto();
    await overview.filter("plover-lite-2", "inject");
    await expect(page).toHaveURL(/model=plover-lite-2/);
    await expect(overview.rows).toHaveCount(5);
    const names = await overview.rows.evaluateAll((rows) => rows.map((r) => r.getAttribute("data-run")));
    // plover regresses night after night: highest INJECT rate is the last night.
    expect(names[0]).toBe(PLOVER);
    expect(names.at(-1)).toBe("plover-lite-2/nightly-2026-11-25");
  });

  test("deletes a run after a confirmation that names its trace count, and nothing else", async ({
    page,
  }, info) => {
    const file = join(info.outputDir, "delete-me.jsonl");
    mkdirSync(info.outputDir, { recursive: true });
    writeFileSync(
      file,
      `${[1, 2, 3].map((i) => JSON.stringify({ id: `d-${i}`, response: { text: `Which timezone? ${i}` } })).join("\n")}\n`,
    );
    cli(["ingest", file, "--run", "e2e-delete-me", "--no-progress"]);
    const traces =
      queryOne<{ n: number }>("SELECT trace_count AS n FROM runs WHERE name = 'e2e-delete-me'")?.n ?? 0;
    expect(traces).toBeGreaterThan(0);
    const before = queryOne<{ n: number }>("SELECT count(*) AS n FROM traces")?.n ?? 0;
    const overview = new RunsOverviewPage(page);
    await overview.goto();
    await overview.row("e2e-delete-me").getByTestId("delete-run").click();
    const dialog = page.locator('dialog[open][data-testid="delete-dialog"]');
    await expect(dialog).toContainText("e2e-delete-me");
    await expect(dialog).toContainText(`${traces} traces`);
    // It says only what is true: no fixture sets exist to spare yet.
    await expect(dialog).not.toContainText("fixture");
    await expect(dialog).toContainText("Probes and other runs are not touched");
    // The safe choice has the focus, and Esc cancels: nothing is deleted.
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    expect(queryOne<{ n: number }>("SELECT count(*) AS n FROM traces")?.n).toBe(before);
    await overview.row("e2e-delete-me").getByTestId("delete-run").click();
    await dialog.getByTestId("confirm-delete").click();
    await expect(page.getByTestId("deleted-notice")).toContainText("e2e-delete-me");
    await expect(overview.row("e2e-delete-me")).toHaveCount(0);
    expect(queryOne<{ n: number }>("SELECT count(*) AS n FROM traces")?.n).toBe(before - traces);
    await expect(overview.row(TERN)).toBeVisible();
  });
});

test.describe("a run", () => {
  test("filters by label from the URL, counts the matches, and every row carries the label", async ({
    page,
  }) => {
    const run = new RunPage(page);
    await run.goto(TERN);
    const all = await run.matchCount();
    await run.select("label").selectOption("INJECT");
    await expect(page).toHaveURL(/label=INJECT/);
    // No field chosen: the label is looked for in every field (the form sends field=*).
    expect(new URL(page.url()).searchParams.get("field") ?? "*").toBe("*");
    const n = await run.matchCount();
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(all);
    await expect(run.rows).toHaveCount(Math.min(n, 50));
    for (const row of await run.rows.all()) {
      await expect(row.locator('[data-testid="label-chip"][data-label="INJECT"]').first()).toBeVisible();
    }
    // The same URL in a fresh page shows the same view: filters live in the URL.
    const url = page.url();
    const again = await page.context().newPage();
    await again.goto(url);
    expect(await new RunPage(again).matchCount()).toBe(n);
  });

  test("combines a flag with a label, and searches text and argument values", async ({ page }) => {
    const run = new RunPage(page);
    await run.goto(PLOVER, "field=timezone&label=INJECT&flag=fenced");
    const n = await run.matchCount();
    const want = queryOne<{ n: number }>(
      `SELECT count(*) AS n FROM traces t JOIN runs r ON r.id = t.run_id
       WHERE r.name = ? AND json_extract(labels, '$.timezone') = 'INJECT' AND result LIKE '%"fenced"%'`,
      PLOVER,
    )?.n;
    expect(n).toBe(want);
    await run.goto(TERN);
    await run.search("America/New_York");
    await expect(page).toHaveURL(/q=America%2FNew_York/);
    await expect(run.rows.first()).toContainText("America/New_York");
    const withValue = queryOne<{ n: number }>(
      `SELECT count(*) AS n FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = ? AND t.response LIKE '%America/New_York%'`,
      TERN,
    )?.n;
    expect(await run.matchCount()).toBe(withValue);
  });

  test("pages with keyset cursors and comes back", async ({ page }) => {
    const run = new RunPage(page);
    await run.goto("when2call-calibration");
    expect(await run.matchCount()).toBe(1200);
    const first = await run.rows.first().getByTestId("trace-link").textContent();
    await page.getByTestId("page-next").first().click();
    await expect(page).toHaveURL(/after=\d+/);
    await expect(run.rows).toHaveCount(50);
    expect(await run.rows.first().getByTestId("trace-link").textContent()).not.toBe(first);
    await page.getByTestId("page-prev").first().click();
    await expect(page).toHaveURL(/before=\d+/);
    await expect(run.rows.first().getByTestId("trace-link")).toHaveText(first ?? "");
  });

  test("an imported human label that disagrees with ours can be found", async ({ page }) => {
    const run = new RunPage(page);
    await run.goto("when2call-calibration", "human=disagree");
    const n = await run.matchCount();
    expect(n).toBeGreaterThan(0);
    const want = queryOne<{ n: number }>(
      `SELECT count(*) AS n FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = 'when2call-calibration'
       AND t.human IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(t.human) h WHERE h.value <> json_extract(t.labels, '$.' || h.key))`,
    )?.n;
    expect(n).toBe(want);
  });

  test("moves through the rows with j/k and opens one with Enter; / focuses the search", async ({ page }) => {
    const run = new RunPage(page);
    await run.goto(TERN);
    await expect(page.getByTestId("run-keys-button")).toHaveAttribute("data-ready", "yes");
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await expect(run.rows.nth(1)).toHaveAttribute("data-active", "true");
    await page.keyboard.press("k");
    await expect(run.rows.nth(0)).toHaveAttribute("data-active", "true");
    await page.keyboard.press("j");
    const href = await run.rows.nth(1).getByTestId("trace-link").getAttribute("href");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`${(href ?? "").split("?")[0]}`));
    await page.goBack();
    await expect(page.getByTestId("run-keys-button")).toHaveAttribute("data-ready", "yes");
    await page.keyboard.press("/");
    await expect(page.getByTestId("filter-q")).toBeFocused();
  });

  test("/runs without a name is a page asking which run, listing runs that open", async ({ page }) => {
    for (const path of ["/runs", "/runs?name=", "/runs?label=ASK"]) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(200);
      expect(res?.headers()["content-type"], path).toContain("text/html");
      // A page like the others: the header, the phone viewport, a title.
      await expect(page.locator('meta[name="viewport"]')).toHaveCount(1);
      await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
      await expect(page).toHaveTitle(/Which run\?/);
      await expect(page.getByTestId("which-run").getByRole("heading")).toHaveText("Which run?");
    }
    const first = page.getByTestId("which-run").getByTestId("run-choice").first();
    const name = await first.locator(".ident").textContent();
    await first.click();
    await expect(page.getByTestId("run-name")).toContainText(name ?? "?");
  });

  test("unknown runs answer 404 without a stack trace", async ({ page }) => {
    const res = await page.goto("/runs/no-such-run");
    expect(res?.status()).toBe(404);
    await expect(page.getByTestId("not-found")).toBeVisible();
    // No stack frame ("at fn (file.js:1:2)") and no error name leaks into the page.
    await expect(page.locator("body")).not.toContainText(/\bat \S+ \(.*:\d+:\d+\)|TypeError|SqliteError/);
  });
});

test("compares a model's two nights: rates that moved and labels that changed", async ({ page }) => {
  await page.goto("/");
  const form = page.getByTestId("compare-form");
  await expect(form.locator('select[name="a"]')).toHaveValue("plover-lite-2/nightly-2026-11-28");
  await expect(form.locator('select[name="b"]')).toHaveValue(PLOVER);
  await form.getByRole("button", { name: "Compare" }).click();
  await expect(page).toHaveURL(/\/compare\?a=/);
  const tz = page.locator('[data-testid="change-table"][data-field="timezone"]');
  await expect(tz.locator('[data-label="INJECT"] [data-testid="delta"]')).toContainText("▲");
  await expect(page.locator('[data-testid="transition-matrix"][data-field="timezone"]')).toBeVisible();
  await expect(page.getByTestId("changed-trace").first()).toBeVisible();
});
