import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { runPytest, SEED_SCORER_PY } from "../lib/fixtures/testPython";
import { cli, cliStatus, ingest, traceIdsByExtId } from "./pages/e2eDb";
import { FixtureSetPage, FixtureSetsPage } from "./pages/FixturePages";
import { ReviewPanel } from "./pages/ReviewPanel";
import { RunPage, RunsOverviewPage } from "./pages/RunsPage";
import { shootFitting } from "./pages/shots";
import { FLIP_LINKS, smallTargets } from "./pages/targetSizes";

// Curated fixture sets, end to end in Chromium, on the demo data: the demo DRIFT that asked
// "Which region is u_9182 in?" relabelled ASK into a new set with the keyboard, re-run, exported
// and imported into a fresh database, and a flip after a new probe version. This run of kestrel's
// is one no other spec reviews.

const RUN = "kestrel-34b/nightly-2026-11-25";
const QUESTION = "Which region is u_9182 in?";
const SET = "e2e-region";
const FLIP_RUN = "e2e-fixture-flip";

/** Screenshots of the page as it is (shots/, not committed), and nothing wider than a 390 px phone. */
const look = (page: Page, name: string, screen = false) => shootFitting(page, `fixtures-${name}`, { screen });

test.beforeAll(() => {
  cli(["probes", "add", resolve("e2e", "fixtures", "fixture-flip.v1.json")]);
  const s = ingest(resolve("e2e", "fixtures", "fixture-flip.jsonl"), FLIP_RUN);
  expect(s.rejected, JSON.stringify(s.errors)).toBe(0);
});

test("relabel the region DRIFT as ASK into a new set with the keyboard, re-run it, export, import, and see a flip", async ({
  page,
}, info) => {
  test.setTimeout(180_000);
  const out = info.outputDir;
  mkdirSync(out, { recursive: true });

  // The run page, keyboard only: j to the row of the question, Enter opens its trace.
  const run = new RunPage(page);
  await run.goto(RUN, "field=timezone&label=DRIFT");
  await expect(page.getByTestId("run-keys-button")).toHaveAttribute("data-ready", "yes");
  const previews = await run.rows.locator("td:last-child").allTextContents();
  const index = previews.findIndex((p) => p.includes(QUESTION));
  expect(index).toBeGreaterThanOrEqual(0);
  for (let i = 0; i <= index; i++) await page.keyboard.press("j");
  await page.keyboard.press("Enter");

  const review = new ReviewPanel(page);
  await expect(page.getByTestId("response-text")).toContainText(QUESTION);
  await review.ready();
  await expect(page.getByTestId("add-to-set")).toHaveAttribute("data-ready", "yes");
  const traceId = await review.traceId();
  await expect(review.focused).toHaveAttribute("data-field", "timezone");

  // Shift+1: ASK, staying on this trace; the name is asked once.
  await page.keyboard.press("Shift+Digit1");
  await expect(review.nameDialog).toBeVisible();
  await page.keyboard.type("e2e-curator");
  await page.keyboard.press("Enter");
  await expect(review.status).toContainText(`Saved on #${traceId}: timezone ASK`);
  await review.ready();
  await expect(review.field("timezone")).toHaveAttribute("data-human", "ASK");

  // Shift+A asks for the set (none remembered yet); a new name makes the set.
  await page.keyboard.press("Shift+KeyA");
  const choose = page.getByTestId("choose-set-dialog");
  await expect(choose).toBeVisible();
  await expect(page.getByTestId("set-name-input")).toBeFocused();
  await page.keyboard.type(SET);
  await look(page, "add-dialog", true);
  await page.keyboard.press("Enter");
  const added = page.getByTestId("add-to-set-status");
  await expect(added).toContainText(`Added timezone of #${traceId} to the new set ${SET}, expected ASK.`);
  const href = (await added.getByTestId("fixture-link").getAttribute("href")) ?? "";
  const identity = href.split("/").pop() ?? "";
  expect(identity).toMatch(/^[0-9a-f]{64}$/);

  // A second fixture, from the command line, of a probe whose next version changes its ask terms.
  const flipTrace = traceIdsByExtId(FLIP_RUN).get("flip-1") as number;
  const labelled = JSON.parse(
    cli(["label", String(flipTrace), "region=ASK", "--reviewer", "e2e-curator", "--set", SET]).trim(),
  ) as { fixtures: { set: string; expected: string }[] };
  expect(labelled.fixtures).toEqual([expect.objectContaining({ set: SET, expected: "ASK" })]);

  // Re-run from the browser: the region question fails under today's ask terms, with the reason.
  const set = new FixtureSetPage(page);
  await set.goto(SET);
  await expect(page.getByTestId("never-rerun")).toBeVisible();
  const first = await set.rerun();
  await expect(set.rows).toHaveCount(2);
  const failing = set.row(identity);
  await expect(failing).toHaveAttribute("data-passed", "false");
  await expect(failing.getByTestId("result")).toHaveText("✗ FAIL");
  await expect(failing.getByTestId("why")).toHaveText(
    'no call, and the text holds none of the ask terms "timezone", "time zone", "which zone"',
  );
  await expect(set.rows.and(page.locator('[data-passed="true"]'))).toHaveCount(1);
  await expect(set.card).toContainText("1 of 2 pass");
  await expect(page.getByTestId("rerun-confusion")).toBeVisible();
  await look(page, "set-failing");

  // Downloads: the browser's files are what the CLI prints.
  const jsonl = await set.download("jsonl", out);
  expect(jsonl.name).toBe(`${SET}.jsonl`);
  expect(jsonl.bytes.toString("utf8")).toBe(cli(["fixtures", "export", SET]));
  const lines = jsonl.bytes.toString("utf8").trim().split("\n");
  expect(lines).toHaveLength(2);
  expect(JSON.parse(lines[0])).toMatchObject({
    set: SET,
    identity,
    expected: "ASK",
    reviewer: "e2e-curator",
  });
  const pytest = await set.download("pytest", out);
  expect(pytest.name).toBe("test_e2e_region.py");
  expect(pytest.bytes.toString("utf8")).toBe(cli(["fixtures", "export", SET, "--format", "pytest"]));
  const alone = await set.download("pytest-reference", out);

  // The pytest files run: against the seed's own score_trace (which knows only the timezone's
  // words, so both fail), and on their own with the reference scorer (the question fails as here).
  const seeded = runPytest(
    { "assumeprobe.py": SEED_SCORER_PY, "test_e2e_region.py": pytest.bytes.toString() },
    "test_e2e_region.py",
  );
  expect(seeded.output).toMatch(/2 failed/);
  const reference = runPytest({ "test_e2e_region.py": alone.bytes.toString() }, "test_e2e_region.py");
  expect(reference.outcomes.get(identity.slice(0, 12)), reference.output).toBe("failed");
  expect(reference.output).toMatch(/1 failed, 1 passed/);

  // Import the JSONL into a fresh database and export it again: the same bytes.
  const fresh = join(out, "fresh.db");
  const file = join(out, "jsonl-e2e-region.jsonl");
  const imported = JSON.parse(cli(["fixtures", "import", file, "--json"], fresh).trim()) as {
    added: number;
    rejected: number;
  };
  expect(imported).toMatchObject({ added: 2, rejected: 0 });
  expect(Buffer.from(cli(["fixtures", "export", SET], fresh))).toEqual(jsonl.bytes);

  // A new version of the flip probe drops "which datacenter"; the next re-run shows the flip loudly.
  cli(["probes", "add", resolve("e2e", "fixtures", "fixture-flip.v2.json")]);
  const second = await set.rerun();
  expect(second).toBeGreaterThan(first);
  await expect(set.broke).toContainText(`1 fixture BROKE since re-run #${first}`);
  await expect(set.broke.getByTestId("flip-item")).toContainText("e2e_fixture_flip · region");
  await expect(set.scorerChanged).toContainText("e2e_fixture_flip");
  await expect(set.rows.and(page.locator('[data-passed="false"]'))).toHaveCount(2);
  await expect(set.history).toHaveCount(2);
  await look(page, "set-flip");
  // The flip's links are held to 24 × 24 px at 390 px like every control (layout.spec's rule).
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.locator(FLIP_LINKS).count()).toBeGreaterThan(0);
  expect(await smallTargets(page)).toEqual([]);
  await page.setViewportSize({ width: 1440, height: 900 });
  await set
    .row(identity)
    .getByRole("link", { name: identity.slice(0, 12) })
    .click();
  await expect(page.getByTestId("fixture-page")).toHaveAttribute("data-identity", identity);
  await look(page, "fixture");

  // And the CI tripwire agrees: fixtures check exits 1 and names the failures.
  const check = cliStatus(["fixtures", "check", SET]);
  expect(check.status).toBe(1);
  expect(check.stdout).toContain("FAIL");

  // The sets page lists the set with its latest re-run.
  const sets = new FixtureSetsPage(page);
  await sets.goto();
  await expect(sets.row(SET)).toContainText("0 of 2 pass");
  await look(page, "sets");

  // Import from the browser: every bad line by number, the good ones kept; again, nothing new.
  const mixed = join(out, "mixed.jsonl");
  writeFileSync(mixed, `${lines[0]}\n{not json\n${lines[1]}\n{"set": "${SET}"}\n`);
  const result = await sets.importFile(mixed, "e2e-imported");
  await expect(result).toHaveAttribute("data-added", "2");
  await expect(result).toHaveAttribute("data-rejected", "2");
  await expect(result.getByTestId("import-error-line")).toHaveCount(2);
  await expect(result.getByTestId("import-error-line").first()).toContainText("line 2");
  await expect(result.getByTestId("import-error-line").last()).toContainText("line 4");
  await look(page, "import-errors");
  const again = await sets.importFile(mixed, "e2e-imported");
  await expect(again).toHaveAttribute("data-added", "0");
  await expect(again).toContainText("2 already there");
});

test("the run page's bulk add counts, confirms and adds; deleting a run names its reviews and the fixtures it keeps", async ({
  page,
}) => {
  const HERON = "heron-mini/nightly-2026-11-29";
  const BULK_SET = "e2e-bulk";
  await page
    .context()
    .addCookies([{ name: "assumeprobe_reviewer", value: "e2e-bulk", domain: "127.0.0.1", path: "/" }]);
  const run = new RunPage(page);
  await run.goto(HERON, "field=timezone&human=reviewed");
  await page.getByTestId("bulk-add-open").click();
  const dialog = page.getByTestId("bulk-add-dialog");
  await dialog.getByTestId("bulk-add-set").fill(BULK_SET);
  await dialog.getByTestId("bulk-add-set").press("Enter");
  const counted = dialog.getByTestId("bulk-add-counted");
  await expect(counted).toContainText(`will go into the new set ${BULK_SET}`);
  // Corrections (the default) and confirmations are separate choices, each with its count; together
  // they are every field the filter shows (all reviewed).
  const kindCount = async (k: string) =>
    Number((await dialog.getByTestId(`bulk-add-kind-count-${k}`).textContent())?.replace(/\D/g, ""));
  const corrections = await kindCount("corrections");
  const confirmations = await kindCount("confirmations");
  expect(corrections + confirmations).toBe(await run.matchCount());
  await dialog.getByTestId("bulk-add-kind-confirmations").check();
  await expect(counted).toHaveAttribute("data-total", String(confirmations));
  await dialog.getByTestId("bulk-add-kind-corrections").check();
  await expect(counted).toHaveAttribute("data-total", String(corrections));
  const total = Number(await counted.getAttribute("data-total"));
  expect(total).toBeGreaterThan(0);
  expect(total).toBe(corrections);
  // The choices are held to 24 × 24 px at 390 px like every control.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const k of ["corrections", "confirmations"]) {
    const box = await dialog.getByTestId(`bulk-add-kind-${k}`).boundingBox();
    expect(Math.min(box?.width ?? 0, box?.height ?? 0)).toBeGreaterThanOrEqual(24);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await look(page, "run-bulk-add-confirm", true);
  await expect(dialog.getByTestId("bulk-add-confirm")).toHaveText(
    `Add ${total} ${total === 1 ? "field" : "fields"}`,
  );
  await dialog.getByTestId("bulk-add-set").press("Enter");
  await expect(dialog.getByTestId("bulk-added")).toHaveText(String(total));
  await look(page, "run-bulk-add-result", true);
  const stored = cli(["fixtures", "show", BULK_SET, "--json"]).trim().split("\n");
  expect(stored).toHaveLength(total);

  // The run of the first test holds one review and two fixtures made from it (its set's, and the
  // import's copy): the delete dialog says so, and is cancelled.
  const overview = new RunsOverviewPage(page);
  await overview.goto();
  await overview.row(RUN).getByTestId("delete-run").click();
  const del = page.locator('dialog[open][data-testid="delete-dialog"]');
  await expect(del.getByTestId("delete-reviews")).toContainText("1 review (by e2e-curator)");
  await expect(del.getByTestId("delete-fixtures")).toContainText("the 2 fixtures made from its traces");
  await look(page, "run-delete-dialog", true);
  await del.getByRole("button", { name: "Cancel" }).click();
  await expect(overview.row(RUN)).toBeVisible();

  // An unknown set or fixture answers 404 and says which kind of name was not found.
  for (const path of ["/fixtures/no-such-set", `/fixtures/${BULK_SET}/${"0".repeat(64)}`]) {
    expect((await page.goto(path))?.status()).toBe(404);
    await expect(page.getByTestId("not-found")).toContainText("no fixture set, or no fixture in that set");
  }
});
