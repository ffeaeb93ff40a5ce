import { expect, type Page, test } from "@playwright/test";
import { cli, openReadOnly, queryOne, traceIdsByExtId } from "./pages/e2eDb";
import { ReviewPanel } from "./pages/ReviewPanel";
import { RunPage } from "./pages/RunsPage";

// Reviews on the demo data (e2e/serve.js loads it into a fresh database). The demo's own reviews
// are all on heron-mini's last night; these tests review other runs.

const PLOVER = "plover-lite-2/nightly-2026-11-25";
const QUESTION = "Which region is u_9182 in? I need that to place 09:00 correctly.";

/** Full-page screenshots at 1440 and 390 px wide, for looking at (shots/ is not committed). */
async function shots(page: Page, name: string) {
  const size = page.viewportSize() ?? { width: 1440, height: 900 };
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `shots/review-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(size);
}

interface StoredReview {
  id: number;
  trace_id: number;
  field: string;
  label: string | null;
  reviewer: string;
  note: string;
  replaces: number | null;
}

function reviewsOf(traceId: number): StoredReview[] {
  const db = openReadOnly();
  try {
    return db.prepare("SELECT * FROM reviews WHERE trace_id = ? ORDER BY id").all(traceId) as StoredReview[];
  } finally {
    db.close();
  }
}

test("keyboard only: relabel the DRIFT that asked for the region with a note, five more, undo one; differs shows them", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const run = new RunPage(page);
  await run.goto(PLOVER, "field=timezone&label=DRIFT");
  await expect(page.getByTestId("run-keys-button")).toHaveAttribute("data-ready", "yes");
  // Find the row by reading the table; reach and open it with the keyboard only.
  const previews = await run.rows.locator("td:last-child").allTextContents();
  const index = previews.findIndex((p) => p.includes("Which region is u_9182 in?"));
  expect(index).toBeGreaterThanOrEqual(0);
  for (let i = 0; i <= index; i++) await page.keyboard.press("j");
  await page.keyboard.press("Enter");

  const review = new ReviewPanel(page);
  await expect(page.getByTestId("response-text")).toHaveText(QUESTION);
  await review.ready();
  const first = await review.traceId();
  await expect(review.focused).toHaveAttribute("data-field", "timezone");

  // `?` lists every key, the review keys among them.
  await page.keyboard.press("?");
  await expect(page.getByTestId("keys-dialog")).toContainText("relabel the focused field");
  await expect(page.getByTestId("keys-dialog")).toContainText("undo your last review");
  await page.keyboard.press("Escape");

  // A note first (n, type, Enter keeps it), then 1 = ASK; the name is asked once.
  await page.keyboard.press("n");
  await expect(review.note).toBeFocused();
  await page.keyboard.type("asks which region: the zone, without the word");
  await shots(page, "note");
  await page.keyboard.press("Enter");
  await expect(review.status).toContainText("Note kept");
  await page.keyboard.press("1");
  await expect(review.nameDialog).toBeVisible();
  await page.keyboard.type("ana");
  await shots(page, "name-dialog");
  await page.keyboard.press("Enter");

  // Saved, and on to the next DRIFT of the filter.
  await expect(page).not.toHaveURL(new RegExp(`/traces/${first}\\?`));
  await expect(page).toHaveURL(/field=timezone&label=DRIFT/);
  await review.ready();
  await expect(review.status).toContainText(`Saved on #${first}: timezone ASK (with a note)`);
  await shots(page, "relabel");
  expect(reviewsOf(first)).toEqual([
    expect.objectContaining({
      field: "timezone",
      label: "ASK",
      reviewer: "ana",
      note: "asks which region: the zone, without the word",
      replaces: null,
    }),
  ]);

  // Five more with the keyboard alone: ASK, DRIFT (confirms ours), OMIT, ASK, ASK.
  const reviewed = [first];
  for (const key of ["1", "5", "2", "1", "1"]) {
    const id = await review.traceId();
    reviewed.push(id);
    await page.keyboard.press(key);
    await expect(review.status).toContainText(`Saved on #${id}`);
    await review.ready();
  }
  // The last one may have had no next trace; either way its review is stored.
  const labels = reviewed.map((id) => reviewsOf(id).at(-1)?.label);
  expect(labels).toEqual(["ASK", "ASK", "DRIFT", "OMIT", "ASK", "ASK"]);

  // z undoes the last review: back to that trace, its human label gone again.
  const last = reviewed[5];
  await page.keyboard.press("z");
  await expect(page).toHaveURL(new RegExp(`/traces/${last}\\?`));
  await review.ready();
  await expect(review.status).toContainText(`Undone on #${last}`);
  await expect(review.field("timezone")).toHaveAttribute("data-human", "");
  await expect(review.historyOf("timezone")).toHaveCount(2);
  await expect(review.historyOf("timezone").first()).toHaveAttribute("data-to", "");
  await shots(page, "history");
  expect(reviewsOf(last).map((r) => [r.label, r.reviewer])).toEqual([
    ["ASK", "ana"],
    [null, "ana"],
  ]);

  // The run page shows the current human label beside ours, and "differs" finds the corrections.
  await run.goto(PLOVER, "field=timezone&human=differs");
  const corrected = [reviewed[0], reviewed[1], reviewed[3], reviewed[4]];
  await expect(run.rows).toHaveCount(corrected.length);
  const shown = (await run.rows.getByTestId("trace-link").allTextContents()).map((t) => Number(t.slice(1)));
  expect(shown).toEqual(corrected);
  await expect(run.rows.first().getByTestId("human-chip")).toHaveAttribute("data-differs", "yes");
  expect(await run.matchCount()).toBe(corrected.length);
  await shots(page, "run-differs");
  await run.goto(PLOVER, "field=timezone&human=reviewed");
  expect(await run.matchCount()).toBe(5);
  await run.goto(PLOVER, "field=timezone&label=DRIFT&human=unreviewed");
  const all = queryOne<{ n: number }>(
    `SELECT count(*) AS n FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = ? AND json_extract(t.labels, '$.timezone') = 'DRIFT'`,
    PLOVER,
  )?.n;
  expect(await run.matchCount()).toBe((all ?? 0) - 5);
});

test("x clears the focused field's review and stays on the trace, with the keyboard and the button", async ({
  browser,
}) => {
  const heron = traceIdsByExtId("heron-mini/nightly-2026-11-28");
  const target = [...heron.entries()].sort((a, b) => a[1] - b[1])[7][1];
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addCookies([{ name: "assumeprobe_reviewer", value: "cleo", domain: "127.0.0.1", path: "/" }]);
  const page = await context.newPage();
  try {
    await page.goto(`/traces/${target}`);
    const review = new ReviewPanel(page);
    await review.ready();
    const field = (await review.focused.getAttribute("data-field")) ?? "";
    // Shift+1 labels and stays; x clears it and stays too, its next trace one key away.
    for (const how of ["key", "button"]) {
      await page.keyboard.press("Shift+Digit1");
      await expect(review.status).toContainText(`Saved on #${target}: ${field} ASK`);
      await expect(review.field(field)).toHaveAttribute("data-human", "ASK");
      await review.ready();
      if (how === "key") await page.keyboard.press("x");
      else await review.field(field).getByTestId("clear-review").click();
      await expect(review.status).toContainText(`Saved on #${target}: ${field} cleared`);
      await expect(page).toHaveURL(new RegExp(`/traces/${target}$`));
      await review.ready();
      expect(await review.traceId()).toBe(target);
      await expect(review.field(field).getByTestId("human-now")).not.toHaveAttribute("data-source", "review");
    }
    expect(reviewsOf(target).map((r) => [r.field, r.label])).toEqual([
      [field, "ASK"],
      [field, null],
      [field, "ASK"],
      [field, null],
    ]);
  } finally {
    await context.close();
  }
});

test("two reviewers relabel one field at once: the second sees the first's review, nothing is lost", async ({
  browser,
}) => {
  const heron = traceIdsByExtId("heron-mini/nightly-2026-11-28");
  const target = [...heron.entries()].sort((a, b) => a[1] - b[1])[5][1];
  const open = async (name: string) => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addCookies([{ name: "assumeprobe_reviewer", value: name, domain: "127.0.0.1", path: "/" }]);
    const page = await context.newPage();
    await page.goto(`/traces/${target}`);
    const review = new ReviewPanel(page);
    await review.ready();
    return { context, page, review };
  };
  const a = await open("ana");
  const b = await open("bo");
  try {
    // Ana relabels with the mouse (and the page goes on); Bo, who saw no review, presses 2.
    await a.review.field("timezone").getByTestId("relabel-ASK").click();
    await expect(a.page).not.toHaveURL(new RegExp(`/traces/${target}$`));
    await b.page.keyboard.press("Shift+Digit2");
    await expect(b.review.conflict).toBeVisible();
    await expect(b.review.conflict).toContainText("ana");
    await expect(b.review.conflict.getByTestId("conflict-field")).toContainText("ASK");
    await shots(b.page, "conflict");
    expect(reviewsOf(target).map((r) => [r.label, r.reviewer])).toEqual([["ASK", "ana"]]);
    // The panel now shows Ana's review; Bo saves his over it with Enter.
    await expect(b.review.field("timezone")).toHaveAttribute("data-human", "ASK");
    await b.page.keyboard.press("Enter");
    await expect(b.review.status).toContainText("Saved");
    const stored = reviewsOf(target);
    expect(stored.map((r) => [r.label, r.reviewer])).toEqual([
      ["ASK", "ana"],
      ["OMIT", "bo"],
    ]);
    expect(stored[1].replaces).toBe(stored[0].id);
    await expect(b.review.historyOf("timezone")).toHaveCount(2);
  } finally {
    await a.context.close();
    await b.context.close();
  }
});

test("a review made in another browser shows on the open trace page as it happens, not at reload", async ({
  browser,
}) => {
  const heron = traceIdsByExtId("heron-mini/nightly-2026-11-28");
  const target = [...heron.entries()].sort((a, b) => a[1] - b[1])[9][1];
  const open = async (name: string) => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addCookies([{ name: "assumeprobe_reviewer", value: name, domain: "127.0.0.1", path: "/" }]);
    const page = await context.newPage();
    await page.goto(`/traces/${target}`);
    const review = new ReviewPanel(page);
    await review.ready();
    return { context, page, review };
  };
  const a = await open("ana");
  const b = await open("bo");
  try {
    const field = (await a.review.focused.getAttribute("data-field")) ?? "";
    await a.page.keyboard.press("Shift+Digit1");
    await expect(a.review.status).toContainText(`Saved on #${target}: ${field} ASK`);
    // Bo has done nothing: his page says it within a poll or two.
    const notice = b.page.getByTestId("reviewed-meanwhile");
    await expect(notice).toContainText(`ana labelled ${field} ASK meanwhile`);
    await expect(b.review.field(field)).not.toHaveAttribute("data-human", "ASK");
    await shots(b.page, "meanwhile");
    // Ana's own page never calls her own review news.
    await a.page.waitForTimeout(6_000);
    await expect(a.page.getByTestId("reviewed-meanwhile")).toHaveCount(0);
    // Bo shows it: the panel has Ana's review, the notice is gone, and his next review builds on it.
    await notice.getByTestId("show-meanwhile").click();
    await expect(b.review.field(field)).toHaveAttribute("data-human", "ASK");
    await expect(notice).toHaveCount(0);
    await b.review.ready();
    await b.page.keyboard.press("Shift+Digit2");
    await expect(b.review.status).toContainText(`Saved on #${target}: ${field} OMIT`);
    const stored = reviewsOf(target);
    expect(stored.map((r) => [r.label, r.reviewer])).toEqual([
      ["ASK", "ana"],
      ["OMIT", "bo"],
    ]);
    expect(stored[1].replaces).toBe(stored[0].id);
    await expect(b.page.getByTestId("reviewed-meanwhile")).toHaveCount(0);
  } finally {
    await a.context.close();
    await b.context.close();
  }
});

test("bulk relabel of a filter: the confirmation names the count, progress shows, a field reviewed meanwhile is skipped and listed", async ({
  page,
}) => {
  const RUN = "kestrel-34b/nightly-2026-11-27";
  const run = new RunPage(page);
  await page
    .context()
    .addCookies([{ name: "assumeprobe_reviewer", value: "cy", domain: "127.0.0.1", path: "/" }]);
  await run.goto(RUN, "field=timezone&label=DRIFT");
  const n = await run.matchCount();
  expect(n).toBeGreaterThan(2);
  await page.getByTestId("bulk-open").click();
  await page.getByTestId("bulk-label").selectOption("ASK");
  await page.getByTestId("bulk-note").fill("bulk: these DRIFTs all ask");
  await page.getByTestId("bulk-count-button").click();
  await expect(page.getByTestId("bulk-count")).toHaveAttribute("data-total", String(n));
  await expect(page.getByTestId("bulk-confirm")).toHaveText(`Relabel ${n} fields`);
  await shots(page, "bulk-confirm");
  // Someone reviews one of them after the count was shown.
  const drift = queryOne<{ id: number }>(
    `SELECT t.id FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = ? AND json_extract(t.labels, '$.timezone') = 'DRIFT' ORDER BY t.id LIMIT 1 OFFSET 1`,
    RUN,
  )?.id as number;
  cli(["label", String(drift), "timezone=DRIFT", "--reviewer", "eve"]);
  await page.getByTestId("bulk-confirm").click();
  const progress = page.getByTestId("bulk-progress");
  await expect(progress).toBeVisible();
  await shots(page, "bulk-progress");
  await expect(progress).toHaveAttribute("data-status", "done");
  await expect(page.getByTestId("bulk-written")).toHaveText(String(n - 1));
  await expect(page.getByTestId("bulk-skipped")).toHaveText("1");
  await expect(page.getByTestId("bulk-skips")).toContainText(`#${drift}`);
  await expect(page.getByTestId("bulk-skips")).toContainText("eve");
  await shots(page, "bulk-done");
  expect(reviewsOf(drift).map((r) => r.reviewer)).toEqual(["eve"]);
  await run.goto(RUN, "field=timezone&human=ASK");
  expect(await run.matchCount()).toBe(n - 1);
});
