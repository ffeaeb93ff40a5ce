import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { cli, openReadOnly, queryOne } from "./pages/e2eDb";
import { RunPage } from "./pages/RunsPage";
import { SHOTS_DIR, shoot } from "./pages/shots";
import { LexiconPage, WhatIf } from "./pages/TunePages";

const RUN = "heron-mini/nightly-2026-11-29";
const LABELS = ["ASK", "OMIT", "COPY", "INJECT", "DRIFT", "ERROR"];

/** The run's timezone labels counted trace by trace from the stored labels: a brute-force recount. */
function recount(): Record<string, number> {
  const db = openReadOnly();
  try {
    const rows = db
      .prepare("SELECT t.labels FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = ?")
      .pluck()
      .all(RUN) as string[];
    const out: Record<string, number> = {};
    for (const l of rows) {
      const label = (JSON.parse(l) as Record<string, string>).timezone;
      if (label) out[label] = (out[label] ?? 0) + 1;
    }
    return out;
  } finally {
    db.close();
  }
}

const labelOf = (ext: string) =>
  JSON.parse(
    queryOne<{ labels: string }>(
      "SELECT t.labels FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = ? AND t.ext_id = ?",
      RUN,
      ext,
    )?.labels ?? "{}",
  ).timezone as string;

test.afterAll(() => {
  // The lexicon as the other specs expect it: the change undone, the run re-scored back.
  const terms = queryOne<{ terms: string }>(
    "SELECT terms FROM lexicon_entries WHERE field = 'timezone' AND version = (SELECT max(version) FROM lexicon_versions)",
  )?.terms;
  if (terms && (JSON.parse(terms) as string[]).includes("region"))
    // Undoing it moves the reviewed field the spec's save fixed back away from its review: a guarded move.
    cli(["lexicon", "edit", "--remove", "timezone=region", "--by", "e2e", "--allow-break", "--rescore"]);
});

test("a lexicon term drafted, its what-if checked, saved, and the run re-scored", async ({ page }) => {
  test.setTimeout(180_000);
  // The curated set's failing fixture: sw-0002 asks "Which region is u_9182 in?", a reviewer said ASK.
  const failing = queryOne<{ identity: string }>(
    `SELECT f.identity FROM fixtures f JOIN fixture_sets s ON s.id = f.set_id JOIN traces t ON t.id = f.source_trace_id
     WHERE s.name = 'demo-regressions' AND t.ext_id = 'sw-0002' AND f.field = 'timezone'`,
  );
  expect(failing).toBeDefined();
  expect(labelOf("sw-0002")).toBe("DRIFT");

  mkdirSync(SHOTS_DIR, { recursive: true });
  // Other specs may have saved lexicon versions before this one: count from where it stands.
  const v0 = queryOne<{ v: number }>("SELECT coalesce(max(version), 0) AS v FROM lexicon_versions")?.v ?? 0;
  const saved = queryOne<{ n: number }>("SELECT count(*) AS n FROM lexicon_versions")?.n ?? 0;
  const v1 = v0 + 1;
  const lexicon = new LexiconPage(page);
  await lexicon.goto();
  await expect(page.getByTestId("lexicon-version")).toContainText(`version ${v0}`);
  await lexicon.addTerm("timezone", "region");
  await lexicon.whatIf.ready();
  // Fixed: the curated set's failing fixture; broken: nothing, in any set.
  await expect(lexicon.whatIf.fixtures).toHaveAttribute("data-broken", "0");
  await expect(lexicon.whatIf.fixtures).toHaveAttribute("data-seed-broken", "0");
  const set = lexicon.whatIf.set("demo-regressions");
  await expect(set).toHaveAttribute("data-fixed", "1");
  await expect(set.locator('[data-testid="what-if-flip"][data-kind="fixed"]')).toContainText(
    failing?.identity.slice(0, 12) ?? "?",
  );
  await expect(page.getByTestId("seed-break")).toHaveCount(0);
  await expect(lexicon.whatIf.move("timezone", "DRIFT", "ASK")).toBeVisible();
  // The draft lives in the page: a screenshot here, not shoot() (which reloads).
  await page.screenshot({ path: join(SHOTS_DIR, "lexicon-draft-1440.png"), fullPage: true });
  // The what-if saved nothing.
  expect(labelOf("sw-0002")).toBe("DRIFT");
  expect(queryOne<{ n: number }>("SELECT count(*) AS n FROM lexicon_versions")?.n).toBe(saved);

  await lexicon.save("mira", { confirmGuard: true });
  await expect(page.getByTestId("lexicon-version")).toContainText(`version ${v1}`);
  await expect(page.locator(`[data-testid="lexicon-version-row"][data-version="${v1}"]`)).toContainText(
    "mira",
  );
  await expect(page.getByTestId("lexicon-diff")).toContainText("region");

  // The run page says a newer configuration scores it otherwise, and re-scores it.
  const run = new RunPage(page);
  await run.goto(RUN);
  const scoring = page.getByTestId("run-scoring");
  await expect(scoring).toHaveAttribute("data-stale", "yes");
  await expect(page.getByTestId("scored-with")).not.toContainText(`lexicon v${v1}`);
  await expect(page.getByTestId("newer-detail")).toContainText(`lexicon v${v1}: timezone +"region"`);
  await page.getByTestId("run-rescore-start").click();
  await expect(page.getByTestId("run-rescore-progress")).toHaveAttribute("data-status", "done", {
    timeout: 90_000,
  });
  await expect(scoring).toHaveAttribute("data-stale", "no", { timeout: 30_000 });
  await expect(page.getByTestId("scored-with")).toContainText(`lexicon v${v1}`);

  // The new labels, on the page and in the store; the re-score's transitions on the run page.
  expect(labelOf("sw-0002")).toBe("ASK");
  const row = page.locator('[data-testid="trace-row"]').filter({ hasText: "sw-0002" });
  await expect(row.locator('[data-label="ASK"]').first()).toBeVisible();
  const move = page.locator(
    '[data-testid="rescore-move"][data-field="timezone"][data-from="DRIFT"][data-to="ASK"]',
  );
  await expect(move.first()).toBeVisible();
  const moved = Number(await move.first().getAttribute("data-count"));
  expect(moved).toBeGreaterThan(0);

  // The counts agree with a brute-force recount, label by label.
  const counts = recount();
  for (const label of LABELS) {
    await run.goto(RUN, new URLSearchParams({ field: "timezone", label }).toString());
    expect(await run.matchCount(), label).toBe(counts[label] ?? 0);
  }
  await run.goto(RUN);
  const rates = await page.getByTestId("field-rate-row").filter({ hasText: "timezone" }).textContent();
  expect(rates).toContain(`${counts.ASK}/${Object.values(counts).reduce((a, b) => a + b, 0)}`);
});

test("a draft that breaks the seed set asks before saving; cancelling saves nothing", async ({ page }) => {
  await page.goto("/probes/schedule_window/tune");
  const version = await page.getByTestId("tune-page").getAttribute("data-version");
  // Without "timezone" the seed's "Which timezone should I use?" is no longer an ASK.
  const field = page.locator('[data-testid="tune-field"][data-field="timezone"]');
  await field.locator('[data-testid="term"][data-term="timezone"]').getByTestId("remove-term").click();
  const whatIf = new WhatIf(page);
  await whatIf.ready();
  await expect(page.getByTestId("seed-break")).toBeVisible();
  await expect(whatIf.fixtures).toHaveAttribute("data-seed-broken", "1");
  await page.getByTestId("save-draft").click();
  const dialog = page.locator('[data-testid="break-dialog"][open]');
  await expect(dialog).toBeVisible();
  // Alone it is a seed break; after other specs' reviews it also moves reviewed fields, named too.
  const heading = dialog.getByRole("heading");
  await expect(heading).toHaveText(
    /^This (breaks 1 seed fixture|moves 1 fixture of the seed set, \d+ reviewed fields? away from their review)$/,
  );
  // A seed break alone names its count on the button; with reviewed fields too it is "Save anyway".
  const seedOnly = (await heading.textContent())?.startsWith("This breaks");
  await expect(dialog.getByTestId("confirm-break")).toHaveText(seedOnly ? "Save and break 1" : "Save anyway");
  // The safe choice has the focus: Enter would not break the seed.
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.screenshot({ path: join(SHOTS_DIR, "tune-break-dialog-1440.png") });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId("saved")).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("tune-page")).toHaveAttribute("data-version", version ?? "");
  await expect(field.locator('[data-testid="term"][data-term="timezone"]')).toHaveCount(1);
});

test("screenshots of the tuning pages at 1440 and 390 px", async ({ page }) => {
  await shoot(page, "lexicon", "/lexicon");
  await shoot(page, "probe-tune", "/probes/schedule_window/tune");
  await shoot(page, "run-scoring", `/runs/${encodeURIComponent(RUN)}`);
  for (const path of ["/lexicon", "/probes/schedule_window/tune"]) {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(path);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, path).toBeLessThanOrEqual(390);
  }
});
