import { resolve } from "node:path";
import { type BrowserContext, expect, test } from "@playwright/test";
import { ingest, openReadOnly, queryOne, traceIdsByExtId } from "./pages/e2eDb";
import { ReviewPanel } from "./pages/ReviewPanel";
import { ReviewQueuePage } from "./pages/ReviewQueuePage";
import { shootFitting } from "./pages/shots";

// The review queue with the keyboard only, on runs ingested here (the demo data may hold other
// questions): the DRIFT that asked "Which region is u_9182 in?" comes first in its run.

const RUN = "e2e-queue";
const QUIET = "e2e-quiet";
const ONE = "e2e-one";
const CLASH = "e2e-clash";
const CLEAR = "e2e-clear";
const MEANWHILE = "e2e-meanwhile";
const UNDO = "e2e-undo-anywhere";
let ids: Map<string, number>;
const id = (ext: string) => {
  const v = ids.get(ext);
  if (v === undefined) throw new Error(`no trace ${ext}`);
  return v;
};

test.beforeAll(() => {
  for (const [file, run] of [
    ["queue.jsonl", RUN],
    ["queue-quiet.jsonl", QUIET],
    ["queue-one.jsonl", ONE],
    ["queue-clash.jsonl", CLASH],
    ["queue-clear.jsonl", CLEAR],
    ["queue-meanwhile.jsonl", MEANWHILE],
    ["queue-undo.jsonl", UNDO],
  ]) {
    const s = ingest(resolve("e2e", "fixtures", file), run);
    expect(s.rejected, JSON.stringify(s.errors)).toBe(0);
  }
  ids = new Map([...traceIdsByExtId(RUN), ...traceIdsByExtId(ONE)]);
  for (const [ext, v] of traceIdsByExtId(CLASH)) ids.set(`clash:${ext}`, v);
  for (const [ext, v] of traceIdsByExtId(CLEAR)) ids.set(`clear:${ext}`, v);
  for (const [ext, v] of traceIdsByExtId(MEANWHILE)) ids.set(`meanwhile:${ext}`, v);
  for (const [ext, v] of traceIdsByExtId(UNDO)) ids.set(`undo:${ext}`, v);
});

function queryAll<T>(sql: string, ...args: unknown[]): T[] {
  const db = openReadOnly();
  try {
    return db.prepare(sql).all(...args) as T[];
  } finally {
    db.close();
  }
}

/**
 * Waits until the name this browser remembered is the server's (its cookie): saving it redraws
 * the page, which would otherwise show a review made meanwhile before the test means it to.
 */
async function nameSaved(ctx: BrowserContext) {
  await expect
    .poll(async () => (await ctx.cookies()).some((c) => c.name === "assumeprobe_reviewer"))
    .toBe(true);
  for (const p of ctx.pages()) await p.waitForLoadState("networkidle");
}

test("the queue with the keyboard only: the region question, an ASK with a note, five more, one undo", async ({
  page,
}) => {
  const q = new ReviewQueuePage(page);
  await q.goto(`run=${RUN}`);
  await q.showing(id("q-region"), "timezone");
  await expect(q.responseText).toContainText("Which region is u_9182 in?");
  await expect(page.getByTestId("queue-why")).toHaveAttribute("data-rule", "drift_question");
  // The question sentences are marked; the timezone's terms were missed.
  await expect(page.getByTestId("question-sentence").first()).toHaveText("Which region is u_9182 in?");
  await expect(page.locator('[data-testid="ask-terms-field"][data-field="timezone"]')).toHaveAttribute(
    "data-found",
    "no",
  );
  await expect(q.progress).toHaveAttribute("data-total", "8");
  await shootFitting(page, "queue-item");

  // First visit: the queue asks the name (the one reviewer dialog), its field focused; Enter keeps it.
  await expect(page.getByTestId("reviewer-name-input")).toBeFocused();
  await page.keyboard.type("Ana");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("reviewer")).toContainText("Ana");

  // f moves between fields, F back.
  await page.keyboard.press("f");
  await expect(q.panel).toHaveAttribute("data-focus", "severity");
  await page.keyboard.press("Shift+F");
  await expect(q.panel).toHaveAttribute("data-focus", "timezone");

  await page.keyboard.press("n");
  await expect(page.getByTestId("review-note")).toBeFocused();
  await page.keyboard.type("asks for the region: that is the timezone");
  await page.keyboard.press("Enter");
  await page.keyboard.press("1");
  // The same trace stays: its severity waits too.
  await q.showing(id("q-region"), "severity");
  await expect(q.status).toContainText("timezone ASK");
  await expect(q.field("timezone").getByTestId("queue-human")).toHaveAttribute("data-label", "ASK");

  // Five more: confirm two DRIFTs and two INJECTs, correct one INJECT to COPY.
  const steps: [string, string, string, string][] = [
    ["q-region", "severity", "5", "q-which-zone"],
    ["q-which-zone", "severity", "5", "q-rec"],
    ["q-rec", "timezone", "4", "q-imp"],
    ["q-imp", "timezone", "4", "q-typed"],
    ["q-typed", "timezone", "3", "q-wrong"],
  ];
  for (const [ext, field, key, next] of steps) {
    await q.showing(id(ext), field);
    await page.keyboard.press(key);
    await expect(q.root).toHaveAttribute("data-trace-id", String(id(next)));
  }
  await q.ready();
  await expect(q.progress).toHaveAttribute("data-reviewed", "6");
  await expect(page.getByTestId("queue-corrects")).toContainText("2 corrected ours");

  // Undo the last one: back to the typed value, unreviewed again.
  await page.keyboard.press("z");
  await q.showing(id("q-typed"), "timezone");
  await expect(page).toHaveURL(/trace=\d+/);
  await expect(q.status).toContainText(`Undone on #${id("q-typed")}: timezone COPY`);
  await expect(q.field("timezone").getByTestId("queue-human")).toHaveText("none yet");
  await expect(q.progress).toHaveAttribute("data-reviewed", "5");

  const note = queryOne<{ note: string; reviewer: string }>(
    "SELECT note, reviewer FROM reviews WHERE trace_id = ? AND field = 'timezone' ORDER BY id LIMIT 1",
    id("q-region"),
  );
  expect(note).toEqual({ note: "asks for the region: that is the timezone", reviewer: "Ana" });

  // The run page's "differs" filter shows the corrected field (the undone one no longer differs).
  await page.goto(`/runs/${RUN}?field=timezone&human=differs`);
  await expect(page.getByTestId("trace-row")).toHaveCount(1);
  await expect(
    page
      .getByTestId("trace-row")
      .locator(`a[href^="/traces/${id("q-region")}"]`)
      .first(),
  ).toBeVisible();

  // The agreement page counts them: five reviewed fields, four agreeing with ours.
  await page.goto("/agreement?model=e2e-queue-model");
  const group = page.locator('[data-testid="agreement-group"][data-group="builtin"]');
  await expect(group.getByTestId("agrees").first()).toHaveAttribute("data-total", "5");
  await expect(group.getByTestId("agrees").first()).toHaveAttribute("data-agree", "4");
  const cell = group.locator(
    '[data-testid="confusion"] [data-testid="cell"][data-ours="DRIFT"][data-human="ASK"]',
  );
  await expect(cell).toHaveAttribute("data-n", "1");
  await cell.getByRole("link").click();
  await expect(page).toHaveURL(/\/runs\/e2e-queue\?.*human=ASK/);
  await expect(page.getByTestId("trace-row")).toHaveCount(1);
});

test("skip keeps an item waiting; the end of the skips and the finished scope say so", async ({ page }) => {
  const q = new ReviewQueuePage(page);
  await page.goto("/review");
  await page.evaluate(() => localStorage.setItem("assumeprobe.reviewer", "Bo"));
  await q.goto(`run=${ONE}`);
  await q.showing(id("one-drift"), "timezone");
  await page.keyboard.press("s");
  await expect(page.getByTestId("queue-end")).toBeVisible();
  await shootFitting(page, "queue-end-of-skips");
  await page.getByTestId("queue-restart").focus();
  await page.keyboard.press("Enter");
  await q.showing(id("one-drift"), "timezone");
  await page.keyboard.press("1");
  await q.showing(id("one-drift"), "severity");
  await page.keyboard.press("5");
  await expect(page.getByTestId("queue-finished")).toBeVisible();
  await expect(page.getByTestId("queue-finished")).toContainText("1 corrected ours, 1 confirmed it");
  await shootFitting(page, "queue-finished");
});

test("a scope with nothing to review says so, with links elsewhere", async ({ page }) => {
  const q = new ReviewQueuePage(page);
  await q.goto(`run=${QUIET}`);
  await expect(page.getByTestId("queue-empty")).toContainText("Nothing to review in this scope");
  await expect(page.getByTestId("other-scopes").getByRole("link").first()).toBeVisible();
  await shootFitting(page, "queue-empty");
  await q.goto("run=no-such-run");
  await expect(page.getByTestId("unknown-run")).toBeVisible();
});

test("x clears the focused field's review and stays on the item, with the key and the button", async ({
  page,
}) => {
  const q = new ReviewQueuePage(page);
  await page.goto("/review");
  await page.evaluate(() => localStorage.setItem("assumeprobe.reviewer", "Eve"));
  // The second item, chosen: after a review the queue would go back to its first (one-drift).
  const omit = id("clear:one-omit");
  await q.goto(`run=${CLEAR}&trace=${omit}`);
  await expect(q.root).toHaveAttribute("data-trace-id", String(omit));
  await q.ready();
  const field = (await q.panel.getAttribute("data-focus")) ?? "";
  for (const how of ["key", "button"]) {
    await page.keyboard.press("Shift+Digit1");
    await expect(q.status).toContainText(`Saved on #${omit}: ${field} ASK`);
    await q.showing(omit, field);
    await expect(q.field(field).getByTestId("queue-human")).toHaveAttribute("data-label", "ASK");
    if (how === "key") await page.keyboard.press("x");
    else await q.field(field).getByRole("button", { name: "clear" }).click();
    await expect(q.status).toContainText(`Saved on #${omit}: ${field} cleared`);
    await q.showing(omit, field);
    await expect(q.field(field).getByTestId("queue-human")).not.toHaveAttribute("data-label", "ASK");
  }
  const labels = queryAll<{ label: string | null }>(
    "SELECT label FROM reviews WHERE trace_id = ? ORDER BY id",
    omit,
  ).map((r) => r.label);
  expect(labels).toEqual(["ASK", null, "ASK", null]);
});

test("a review made in another browser shows on the open queue item as it happens", async ({ browser }) => {
  const pages = [];
  for (const name of ["Fay", "Gus"]) {
    const ctx = await browser.newContext();
    await ctx.addInitScript((n) => localStorage.setItem("assumeprobe.reviewer", n), name);
    const page = await ctx.newPage();
    const q = new ReviewQueuePage(page);
    await q.goto(`run=${MEANWHILE}`);
    await q.showing(id("meanwhile:one-drift"), "timezone");
    await nameSaved(ctx);
    pages.push({ page, q });
  }
  const [a, b] = pages;
  try {
    await a.page.keyboard.press("1");
    await a.q.showing(id("meanwhile:one-drift"), "severity");
    // Gus has done nothing: his page says it within a poll or two.
    const notice = b.page.getByTestId("reviewed-meanwhile");
    await expect(notice).toContainText("Fay labelled timezone ASK meanwhile");
    await expect(a.page.getByTestId("reviewed-meanwhile")).toHaveCount(0);
    await shootFitting(b.page, "queue-meanwhile");
    await notice.getByTestId("show-meanwhile").click();
    await expect(b.q.field("timezone").getByTestId("queue-human")).toHaveAttribute("data-label", "ASK");
    await expect(b.page.getByTestId("reviewed-meanwhile")).toHaveCount(0);
    await expect(b.q.root).toHaveAttribute("data-trace-id", String(id("meanwhile:one-drift")));
  } finally {
    for (const p of pages) await p.page.context().close();
  }
});

test("two reviewers on one queue item: the second sees the first's review, and Enter saves over it", async ({
  browser,
}) => {
  const pages = [];
  for (const name of ["Cy", "Di"]) {
    const ctx = await browser.newContext();
    await ctx.addInitScript((n) => localStorage.setItem("assumeprobe.reviewer", n), name);
    const page = await ctx.newPage();
    const q = new ReviewQueuePage(page);
    await q.goto(`run=${CLASH}`);
    await q.showing(id("clash:one-drift"), "timezone");
    await nameSaved(ctx);
    pages.push({ page, q });
  }
  const [a, b] = pages;
  await a.page.keyboard.press("1");
  await a.q.showing(id("clash:one-drift"), "severity");
  // The queue moves on before the save lands: wait until Cy's review is stored (on a loaded
  // machine B's key could otherwise arrive first, and there would be nothing to conflict with).
  await expect
    .poll(() =>
      queryAll<{ reviewer: string }>(
        "SELECT reviewer FROM reviews WHERE trace_id = ? AND field = 'timezone'",
        id("clash:one-drift"),
      ).map((r) => r.reviewer),
    )
    .toEqual(["Cy"]);
  // B still shows the field as unreviewed.
  await b.page.keyboard.press("5");
  const conflict = b.page.getByTestId("review-conflict");
  await expect(conflict).toContainText("Cy labelled timezone ASK");
  await shootFitting(b.page, "queue-conflict");
  await b.page.keyboard.press("Enter");
  await b.q.showing(id("clash:one-drift"), "severity");
  await expect(b.q.field("timezone").getByTestId("queue-human")).toHaveAttribute("data-label", "DRIFT");
  const rows = queryAll<{ label: string; reviewer: string; replaces: number | null; id: number }>(
    "SELECT id, label, reviewer, replaces FROM reviews WHERE trace_id = ? AND field = 'timezone' ORDER BY id",
    id("clash:one-drift"),
  );
  expect(rows.map((r) => [r.reviewer, r.label])).toEqual([
    ["Cy", "ASK"],
    ["Di", "DRIFT"],
  ]);
  expect(rows[1].replaces).toBe(rows[0].id);
  for (const p of pages) await p.page.context().close();
});

test("z undoes the tab's last review on either page: a queue review on the trace page, a trace page review in the queue", async ({
  browser,
}) => {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await ctx.addInitScript(() => localStorage.setItem("assumeprobe.reviewer", "Hal"));
  const page = await ctx.newPage();
  const t = id("undo:one-drift");
  const timezone = () =>
    queryAll<{ label: string | null; reviewer: string }>(
      "SELECT label, reviewer FROM reviews WHERE trace_id = ? AND field = 'timezone' ORDER BY id",
      t,
    ).map((r) => [r.label, r.reviewer]);
  try {
    const q = new ReviewQueuePage(page);
    const review = new ReviewPanel(page);
    await q.goto(`run=${UNDO}`);
    await q.showing(t, "timezone");
    await nameSaved(ctx);
    // A review in the queue...
    await page.keyboard.press("1");
    await q.showing(t, "severity");
    await expect(q.status).toContainText(`Saved on #${t}: timezone ASK`);
    expect(timezone()).toEqual([["ASK", "Hal"]]);

    // ...undone with z on the trace page, which goes back to the queue item it was made on.
    await page.goto(`/traces/${t}`);
    await review.ready();
    await expect(review.field("timezone")).toHaveAttribute("data-human", "ASK");
    await page.keyboard.press("z");
    await expect(page).toHaveURL(new RegExp(`/review\\?.*trace=${t}&field=timezone`));
    await q.showing(t, "timezone");
    await expect(q.status).toContainText(`Undone on #${t}: timezone ASK, now cleared`);
    await expect(q.field("timezone").getByTestId("queue-human")).toHaveText("none yet");
    expect(timezone()).toEqual([
      ["ASK", "Hal"],
      [null, "Hal"],
    ]);

    // A review on the trace page, undone with z in the queue, which goes back to the trace page.
    await page.goto(`/traces/${t}`);
    await review.ready();
    await expect(review.focused).toHaveAttribute("data-field", "timezone");
    await page.keyboard.press("Shift+Digit2");
    await expect(review.status).toContainText(`Saved on #${t}: timezone OMIT`);
    // The queue shows the trace again for its severity, which still waits.
    await q.goto(`run=${UNDO}`);
    await q.showing(t, "severity");
    await expect(q.field("timezone").getByTestId("queue-human")).toHaveAttribute("data-label", "OMIT");
    await page.keyboard.press("z");
    await expect(page).toHaveURL(new RegExp(`/traces/${t}$`));
    await review.ready();
    await expect(review.status).toContainText(`Undone on #${t}: timezone OMIT, now cleared`);
    await expect(review.field("timezone")).toHaveAttribute("data-human", "");
    expect(timezone()).toEqual([
      ["ASK", "Hal"],
      [null, "Hal"],
      ["OMIT", "Hal"],
      [null, "Hal"],
    ]);
  } finally {
    await ctx.close();
  }
});
