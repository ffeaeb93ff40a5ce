import { resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { cli, ingest, queryOne, traceIdsByExtId } from "./pages/e2eDb";
import { ReviewPanel } from "./pages/ReviewPanel";
import { SuggestionsPanel } from "./pages/SuggestionsPanel";
import { shootFitting } from "./pages/shots";

// Learning from corrections, in the browser: three replies that ask where the user is without
// naming the field (a probe of its own, `e2e_pickup`, whose field name no other probe uses, so the
// lexicon change touches nothing else), relabelled ASK, then the suggestion that fixes them taken
// into the lexicon's draft, its what-if, the save, and the re-score.

const RUN = "e2e-learn";
const TOWN = "e2e-learn-town";
const QUESTIONS = ["where-1", "where-2", "where-3"];

test.beforeAll(() => {
  cli(["probes", "add", resolve("e2e", "fixtures", "learn-probe.json")]);
  const s = ingest(resolve("e2e", "fixtures", "learn.jsonl"), RUN);
  expect(s.rejected, JSON.stringify(s.errors)).toBe(0);
  const t = ingest(resolve("e2e", "fixtures", "learn-town.jsonl"), TOWN);
  expect(t.rejected, JSON.stringify(t.errors)).toBe(0);
  // A fixture that asks by the field's spaced name: what keeps "pickup city" alive in the mutation check.
  const asked = traceIdsByExtId(RUN).get("asked") as number;
  cli(["label", String(asked), "pickup_city=ASK", "--reviewer", "lena", "--set", "e2e-learn"]);
});

const labelOf = (traceId: number) =>
  queryOne<{ label: string }>(
    "SELECT json_extract(labels, '$.pickup_city') AS label FROM traces WHERE id = ?",
    traceId,
  )?.label;

test("relabel three questions that do not name the field, take the top suggestion, see them fixed, save, re-score", async ({
  page,
}) => {
  test.setTimeout(360_000);
  const ids = traceIdsByExtId(RUN);
  const questions = QUESTIONS.map((q) => ids.get(q) as number);
  for (const id of questions) expect(labelOf(id)).toBe("DRIFT");

  // Relabel each as ASK on its trace page (1 = ASK; the name is asked once).
  const review = new ReviewPanel(page);
  for (const [i, id] of questions.entries()) {
    await page.goto(`/traces/${id}`);
    await review.ready();
    await expect(review.focused).toHaveAttribute("data-field", "pickup_city");
    await page.keyboard.press("1");
    if (i === 0) {
      await expect(review.nameDialog).toBeVisible();
      await page.keyboard.type("lena");
      await page.keyboard.press("Enter");
    }
    await expect(review.status).toContainText(`Saved on #${id}: pickup_city ASK`);
  }

  // The lexicon page: suggestions learned from that run only.
  await page.goto("/lexicon");
  const panel = new SuggestionsPanel(page);
  await panel.chooseRun(RUN);
  await expect(panel.scopeWords).toHaveText(`run ${RUN}`);
  await panel.find();
  await expect(panel.counted).toContainText("3 questions scored DRIFT");
  const top = panel.suggestion(1);
  await expect(top).toHaveAttribute("data-kind", "add");
  await expect(top.getByTestId("suggestion-field")).toHaveText("pickup_city");
  await expect(top.getByTestId("suggestion-term")).toHaveText("“located”");
  await expect(top).toHaveAttribute("data-fixes", "3");
  await expect(top).toHaveAttribute("data-breaks", "0");
  // The sentences it came from, the term marked in each.
  await expect(top.getByTestId("suggestion-source")).toHaveCount(3);
  await expect(top.getByTestId("source-term").first()).toHaveText("located");
  await expect(top.getByTestId("suggestion-source").first()).toHaveText("“Where are you located right now?”");
  // Its own what-if: nothing broken, three labels to a human label.
  await expect(top.getByTestId("suggestion-what-if")).toContainText("0 broken");
  await expect(top.getByTestId("suggestion-what-if")).toContainText(
    "3 move (3 to a human label, 0 away from one)",
  );
  await shootFitting(page, "lexicon-suggestions");

  // One click into the draft: the draft holds it and the live what-if shows them fixed, nothing broken.
  await top.getByTestId("take-suggestion").click();
  await expect(top.getByTestId("take-suggestion")).toHaveText("in the draft ✓");
  await expect(panel.notice).toContainText('add pickup_city="located"');
  const entry = page.locator('[data-testid="lexicon-entry"][data-field="pickup_city"]');
  await expect(entry.getByTestId("term")).toHaveCount(1);
  await expect(entry.getByTestId("term")).toHaveAttribute("data-term", "located");
  await expect(page.getByTestId("draft-changes")).toContainText('pickup_city +"located"');
  const whatIf = page.getByTestId("what-if");
  await expect(whatIf).toHaveAttribute("data-state", "ready");
  const fixtures = whatIf.getByTestId("what-if-fixtures");
  await expect(fixtures).toHaveAttribute("data-broken", "0");
  await expect(fixtures).toHaveAttribute("data-seed-broken", "0");
  const move = whatIf.locator(
    '[data-testid="what-if-move"][data-field="pickup_city"][data-from="DRIFT"][data-to="ASK"]',
  );
  await expect(move).toHaveAttribute("data-count", "3");
  await expect(whatIf.getByTestId("what-if-traces")).toContainText("3 to a human label, 0 away from one");
  await shootFitting(page, "lexicon-suggestion-taken");

  // Save: a new lexicon version; then re-score the run it applies to.
  const before = Number(await page.getByTestId("lexicon-page").getAttribute("data-version"));
  await page.getByTestId("save-draft").click();
  await expect(page.getByTestId("lexicon-page")).toHaveAttribute("data-version", String(before + 1));
  const rescore = page.getByTestId("rescore");
  await rescore.getByTestId("rescore-start").click();
  // Every run an older configuration scored is re-scored (the demo's and the other specs'): slow on a loaded machine.
  await expect(rescore.getByTestId("rescore-progress")).toHaveAttribute("data-status", "done", {
    timeout: 180_000,
  });
  for (const id of questions) await expect.poll(() => labelOf(id)).toBe("ASK");
  expect(labelOf(ids.get("booked") as number)).toBe("DRIFT");

  // The trace page says ASK now, by the lexicon's term.
  await page.goto(`/traces/${questions[0]}`);
  await expect(
    page.locator('[data-testid="field-row"][data-field="pickup_city"]').getByTestId("our-label"),
  ).toHaveText("ASK");

  // The mutation check lists the new term as dead: no fixture needs it yet.
  await page.goto("/lexicon");
  const mutant = page.locator('[data-testid="mutant"][data-mutant=\'pickup_city="located"\']');
  await expect(mutant).toHaveAttribute("data-dead", "true");
  await expect(mutant.getByTestId("dead-term")).toBeVisible();
  // Nothing left to learn from that run.
  await panel.chooseRun(RUN);
  await panel.find();
  await expect(panel.counted).toContainText("0 questions scored DRIFT");
  await expect(page.getByTestId("suggest-none")).toBeVisible();
});

test("a probe's tune page: suggestions for its own terms taken into its draft, the name kept; dead terms marked", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto("/probes/e2e_pickup/tune");
  const panel = new SuggestionsPanel(page);
  await expect(panel.root.getByText("for e2e_pickup's own terms")).toBeVisible();
  // The probe lists no terms of its own yet: nothing for the mutation check.
  await expect(page.getByTestId("mutation-empty")).toBeVisible();
  await panel.chooseRun(TOWN);
  await panel.find();
  const top = panel.suggestion(1);
  await expect(top.getByTestId("suggestion-term")).toHaveText("“town”");
  await expect(top).toHaveAttribute("data-fixes", "2");
  await expect(top).toHaveAttribute("data-breaks", "0");
  await top.getByTestId("take-suggestion").click();
  // Its first own term keeps the name fallback it replaces.
  const field = page.locator('[data-testid="tune-field"][data-field="pickup_city"]');
  await expect(field.getByTestId("term")).toHaveCount(3);
  for (const [i, t] of ["pickup_city", "pickup city", "town"].entries())
    await expect(field.getByTestId("term").nth(i)).toHaveAttribute("data-term", t);
  const whatIf = page.getByTestId("what-if");
  await expect(whatIf).toHaveAttribute("data-state", "ready");
  await expect(
    whatIf.locator(
      '[data-testid="what-if-move"][data-field="pickup_city"][data-from="DRIFT"][data-to="ASK"]',
    ),
  ).toHaveAttribute("data-count", "2");
  await expect(whatIf.getByTestId("what-if-fixtures")).toHaveAttribute("data-broken", "0");
  await shootFitting(page, "probe-tune-suggestions");
  await page.getByTestId("save-draft").click();
  // A new browser: the name is asked once.
  const dialog = page.locator('[data-testid="reviewer-dialog"][open]');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId("reviewer-name-input").fill("lena");
  await dialog.getByTestId("reviewer-save").click();
  await expect(page.getByTestId("saved")).toBeVisible();
  // Saved: the mutation check reads the new terms; the fixture that asks "pickup city" needs that one.
  const mutant = (m: string) => page.locator(`[data-testid="mutant"][data-mutant='${m}']`);
  await expect(mutant('pickup_city="pickup city"')).toHaveAttribute("data-dead", "false");
  await expect(mutant('pickup_city="pickup city"')).toContainText("1 fixture fails without it");
  await expect(mutant('pickup_city="town"')).toHaveAttribute("data-dead", "true");
  await expect(mutant('pickup_city="pickup_city"')).toHaveAttribute("data-dead", "true");
  await shootFitting(page, "probe-tune-mutation");
});

test("schedule_window's tune page: the top suggestion from the demo's labels taken into its draft", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto("/probes/schedule_window/tune");
  const panel = new SuggestionsPanel(page);
  await panel.find();
  const top = panel.suggestion(1);
  await expect(top).toBeVisible();
  const field = (await top.getByTestId("suggestion-field").textContent()) ?? "";
  const term = ((await top.getByTestId("suggestion-term").textContent()) ?? "").replace(/[“”]/g, "");
  await top.getByTestId("take-suggestion").click();
  await expect(top.getByTestId("take-suggestion")).toHaveText("in the draft ✓");
  // The editor's own state holds it: its chip, the draft's changes, and the live what-if of it.
  const chips = page.locator(`[data-testid="tune-field"][data-field="${field}"]`).getByTestId("term");
  await expect(chips.and(page.locator(`[data-term="${term}"]`))).toHaveCount(1);
  await expect(page.getByTestId("draft-changes")).toContainText(term);
  await expect(page.getByTestId("what-if")).toHaveAttribute("data-state", "ready");
  await shootFitting(page, "schedule-window-tune-suggestion-taken");
});
