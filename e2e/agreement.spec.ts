import { resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { cli, ingest } from "./pages/e2eDb";
import { shootFitting } from "./pages/shots";

// Agreement over imported human labels of runs ingested here: two runs (one model each, so the
// overview's trends and comparison stay the demo's) of a probe from a file, a probe group of its
// own that keeps the demo's labels out of the figures: 6 timezone fields, 3 agreeing; kappa by hand
// is 0.4.

const GROUP = "file:agree-probe.json";

test.beforeAll(() => {
  cli(["probes", "add", resolve("e2e", "fixtures", "agree-probe.json")]);
  for (const [file, run] of [
    ["agreement-a.jsonl", "e2e-agree-a"],
    ["agreement-b.jsonl", "e2e-agree-b"],
    ["agreement-none.jsonl", "e2e-agree-none"],
  ]) {
    const s = ingest(resolve("e2e", "fixtures", file), run);
    expect(s.rejected, JSON.stringify(s.errors)).toBe(0);
  }
});

test("the agreement page: matrix, precision and recall, kappa with its count, cells linking to their fields", async ({
  page,
}) => {
  await page.goto(`/agreement?group=${encodeURIComponent(GROUP)}`);
  const group = page.locator(`[data-testid="agreement-group"][data-group="${GROUP}"]`);
  const agrees = group.getByTestId("agrees").first();
  await expect(agrees).toHaveAttribute("data-total", "6");
  await expect(agrees).toHaveAttribute("data-agree", "3");
  await expect(group.getByTestId("kappa").first()).toHaveAttribute("data-kappa", "0.400");
  await expect(group.getByTestId("kappa").first()).toHaveText("κ 0.40 on 6 fields");
  const matrix = group.getByTestId("confusion");
  const cell = (ours: string, human: string) =>
    matrix.locator(`[data-testid="cell"][data-ours="${ours}"][data-human="${human}"]`);
  await expect(cell("DRIFT", "ASK")).toHaveAttribute("data-n", "2");
  await expect(cell("INJECT", "COPY")).toHaveAttribute("data-n", "1");
  // Precision per row (ours), recall per column (human); none where nothing was given.
  const rows = matrix.locator("tbody tr");
  await expect(rows.first().getByTestId("precision")).toHaveText("100%"); // ASK
  await expect(matrix.getByTestId("recall").first()).toHaveText("33%"); // ASK
  await expect(page.getByTestId("per-probe-field").getByTestId("slice")).toHaveCount(1);
  await expect(page.getByTestId("per-model").getByTestId("slice")).toHaveCount(2);
  await shootFitting(page, "agreement");

  // One run, probe and field: the run page filtered to the cell's fields.
  await cell("INJECT", "COPY").getByRole("link").click();
  await expect(page).toHaveURL(/\/runs\/e2e-agree-b\?field=timezone&label=INJECT&human=COPY&probe=e2e_agree/);
  await expect(page.getByTestId("trace-row")).toHaveCount(1);

  // Fields in two runs: a list of where they are, each to its run page.
  await page.goto(`/agreement?group=${encodeURIComponent(GROUP)}`);
  await cell("DRIFT", "ASK").getByRole("link").click();
  await expect(page.getByTestId("cell-target")).toHaveCount(2);
  await shootFitting(page, "agreement-cell");
  await page.getByTestId("cell-target").filter({ hasText: "e2e-agree-a" }).getByRole("link").click();
  await expect(page.getByTestId("trace-row")).toHaveCount(1);

  // One probe and field, per model.
  await page.goto("/agreement?probe=e2e_agree&field=timezone");
  await expect(page.getByTestId("agreement-focus")).toBeVisible();
  for (const m of ["e2e-agree-a-model", "e2e-agree-b-model"])
    await expect(page.locator(`[data-testid="focus-model"][data-model="${m}"]`)).toBeVisible();
});

test("kappa says none, not 0, when nothing is comparable; an empty scope says what to do", async ({
  page,
}) => {
  await page.goto("/agreement?model=e2e-none-model");
  const k = page
    .locator('[data-testid="agreement-group"][data-group="builtin"]')
    .getByTestId("kappa")
    .first();
  await expect(k).toHaveAttribute("data-kappa", "none");
  await expect(k).toContainText("none on 2 fields");
  await page.goto("/agreement?model=no-such-model");
  await expect(page.getByTestId("agreement-empty")).toContainText("No field has a human label in this scope");
  await shootFitting(page, "agreement-empty");
});

test("the overview has one agreement line per probe group, the When2Call run's among them", async ({
  page,
}) => {
  await page.goto("/");
  const lines = page.getByTestId("agreement-line");
  await expect(lines.filter({ hasText: "When2Call" }).first()).toContainText(
    "scorer agrees with reviewers on",
  );
  await expect(page.locator('[data-testid="agreement-line"][data-group="builtin"]')).toContainText("fields");
  await lines.filter({ hasText: "When2Call" }).first().getByRole("link").click();
  await expect(page).toHaveURL(/\/agreement\?group=/);
  await expect(page.getByTestId("agreement-group")).toHaveCount(1);
  await page.goto("/");
  await page.getByTestId("agreement-lines").scrollIntoViewIfNeeded();
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByTestId("agreement-lines").screenshot({ path: `shots/overview-agreement-${width}.png` });
  }
});
