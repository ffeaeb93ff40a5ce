import { expect, type Page, test } from "@playwright/test";
import { queryOne } from "./pages/e2eDb";
import { RunPage } from "./pages/RunsPage";
import { TracePage } from "./pages/TracePage";

const W2C = "when2call-calibration";
const HERON = "heron-mini/nightly-2026-11-29";

const cameFrom = (page: Page) => page.locator('[data-testid="trace-row"][data-came-from="true"]');

async function keysReady(page: Page, id = "keys-button") {
  await expect(page.getByTestId(id)).toHaveAttribute("data-ready", "yes");
}

/** Whether the element's box is inside the window. */
async function inView(page: Page, id: number): Promise<boolean> {
  return page.locator(`#trace-${id}`).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  });
}

test.describe("coming back from a trace", () => {
  test("u returns to the row on its page (page 3), highlighted and in view; paging shows the position", async ({
    page,
  }) => {
    const run = new RunPage(page);
    await run.goto(W2C);
    await expect(page.getByTestId("page-position").first()).toHaveText("1–50 of 1,200");
    await page.getByTestId("page-next").first().click();
    await expect(page.getByTestId("page-position").first()).toHaveText("51–100 of 1,200");
    await page.getByTestId("page-next").first().click();
    await expect(page.getByTestId("page-position").first()).toHaveText("101–150 of 1,200");
    const row = run.rows.nth(37);
    const id = Number(await row.getAttribute("data-trace-id"));
    await row.getByTestId("trace-link").click();
    await expect(page.getByTestId("trace-page")).toHaveAttribute("data-trace-id", String(id));
    await keysReady(page);
    await page.keyboard.press("u");
    await page.waitForURL((u) => u.pathname === `/runs/${W2C}` && u.searchParams.get("at") === String(id));
    await expect(page.getByTestId("page-position").first()).toHaveText("101–150 of 1,200");
    await expect(cameFrom(page)).toHaveAttribute("data-trace-id", String(id));
    await expect(cameFrom(page)).toHaveAttribute("data-active", "true");
    await expect.poll(() => inView(page, id)).toBe(true);
    // j/k on the run page go on from that row.
    await keysReady(page, "run-keys-button");
    await page.keyboard.press("j");
    await expect(run.rows.nth(38)).toHaveAttribute("data-active", "true");
    // Paging on from there keeps counting.
    await page.getByTestId("page-next").first().click();
    await expect(page.getByTestId("page-position").first()).toHaveText("151–200 of 1,200");
    await page.getByTestId("page-prev").first().click();
    await expect(page.getByTestId("page-position").first()).toHaveText("101–150 of 1,200");
  });

  test("after j past the end of a page, u lands on the next page, at the trace now shown", async ({
    page,
  }) => {
    const run = new RunPage(page);
    await run.goto(W2C);
    await page.getByTestId("page-next").first().click();
    await expect(page.getByTestId("page-position").first()).toHaveText("51–100 of 1,200");
    const last = run.rows.nth(49);
    await last.getByTestId("trace-link").click();
    await keysReady(page);
    const from = Number(await page.getByTestId("trace-page").getAttribute("data-trace-id"));
    await page.keyboard.press("j");
    await expect(page.getByTestId("trace-page")).not.toHaveAttribute("data-trace-id", String(from));
    const next = Number(await page.getByTestId("trace-page").getAttribute("data-trace-id"));
    await keysReady(page);
    await page.keyboard.press("u");
    await page.waitForURL((u) => u.searchParams.get("at") === String(next));
    await expect(page.getByTestId("page-position").first()).toHaveText("101–150 of 1,200");
    await expect(cameFrom(page)).toHaveAttribute("data-trace-id", String(next));
    await expect(run.rows.first()).toHaveAttribute("data-trace-id", String(next));
  });

  test("within a filter, u returns to the filtered page holding the trace", async ({ page }) => {
    const filter = "field=timezone&label=INJECT";
    const run = new RunPage(page);
    await run.goto("plover-lite-2/nightly-2026-11-29", filter);
    const n = await run.matchCount();
    expect(n).toBeGreaterThan(50);
    await page.getByTestId("page-next").first().click();
    await expect(page.getByTestId("page-position").first()).toHaveText(`51–${Math.min(100, n)} of ${n}`);
    const row = run.rows.nth(3);
    const id = Number(await row.getAttribute("data-trace-id"));
    await row.getByTestId("trace-link").click();
    await keysReady(page);
    await expect(page.getByTestId("filter-summary")).toContainText("within filter");
    await page.keyboard.press("u");
    await page.waitForURL(
      (u) => u.searchParams.get("at") === String(id) && u.searchParams.get("label") === "INJECT",
    );
    await expect(page.getByTestId("page-position").first()).toHaveText(`51–${Math.min(100, n)} of ${n}`);
    await expect(cameFrom(page)).toHaveAttribute("data-trace-id", String(id));
  });
});

test("a trace outside the filter does not claim to be within it", async ({ page }) => {
  const t = queryOne<{ id: number }>(
    `SELECT t.id FROM traces t JOIN runs r ON r.id = t.run_id
     WHERE r.name = ? AND json_extract(t.labels, '$.timezone') = 'INJECT' ORDER BY t.id LIMIT 1 OFFSET 2`,
    HERON,
  );
  expect(t).toBeDefined();
  const tp = new TracePage(page);
  await tp.goto(t?.id ?? 0, "field=timezone&label=DRIFT");
  await keysReady(page);
  const note = page.getByTestId("filter-summary");
  await expect(note).toContainText("not in the filter");
  await expect(note).toContainText("label=DRIFT");
  await expect(note).not.toContainText("within filter");
  // The same trace inside a filter that holds it says so.
  await tp.goto(t?.id ?? 0, "field=timezone&label=INJECT");
  await expect(page.getByTestId("filter-summary")).toContainText("within filter");
  // Opened directly, no filter: the whole run.
  await tp.goto(t?.id ?? 0);
  await expect(page.getByTestId("filter-summary")).toHaveText("within the whole run");
  // u from outside the filter lands where it would be, and says it is not there.
  await tp.goto(t?.id ?? 0, "field=timezone&label=DRIFT");
  await keysReady(page);
  await page.keyboard.press("u");
  await page.waitForURL((u) => u.searchParams.get("at") === String(t?.id));
  await expect(page.getByTestId("came-from-outside")).toContainText(`#${t?.id}`);
  await expect(cameFrom(page)).toHaveCount(0);
  for (const chip of await new RunPage(page).rows.locator('[data-testid="label-chip"]:first-child').all())
    await expect(chip).toHaveAttribute("data-label", "DRIFT");
});
