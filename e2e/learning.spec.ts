import { resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { cli, cliStatus, ingest, traceIdsByExtId } from "./pages/e2eDb";
import { SuggestionsPanel } from "./pages/SuggestionsPanel";
import { shootFitting } from "./pages/shots";
import { TracePage } from "./pages/TracePage";

// Learning that generalises (issue 25): a nonce word asks for each field of a probe of its own, in
// four replies (two a field), and a reviewer confirmed one DRIFT it would turn to ASK: its net over
// every field (4 fixes, 1 break) beats its best field's (2), so the suggestion puts it in the
// lexicon's `*` entry (every field), and the reviewed field makes the save guarded (refused until
// confirmed). And a call written as a fenced JSON block inside an explicit
// response.text is recovered and shown as the call. The `*` entry is cleared afterwards: it would
// count for every field of the other specs' probes.

const RUN = "e2e-learning";

test.beforeAll(() => {
  cli(["probes", "add", resolve("e2e", "fixtures", "learning-probe.json")]);
  const s = ingest(resolve("e2e", "fixtures", "learning.jsonl"), RUN);
  expect(s.rejected, JSON.stringify(s.errors)).toBe(0);
  const d1 = traceIdsByExtId(RUN).get("any-d1") as number;
  // A worker started again runs this again: the review is there already (a conflict, nothing written).
  const r = cliStatus(["label", String(d1), "e2e_any_day=DRIFT", "--reviewer", "lena"]);
  expect(r.status === 0 || r.stdout.includes('"conflicts"'), r.stderr).toBe(true);
  const f = ingest(resolve("fixtures", "testdata", "flags.jsonl"), "fixtures-flags");
  expect(f.rejected).toBe(0);
});

test.afterAll(() => {
  const now = JSON.parse(cli(["lexicon", "list", "--json"])) as { entries: Record<string, unknown> };
  if (Object.hasOwn(now.entries, "*"))
    cli(["lexicon", "edit", "--clear", "*", "--allow-break", "--by", "e2e"]);
});

test("a term that asks for every field is saved from a suggestion into `*`, guarded by a reviewed field", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.goto("/lexicon");
  const panel = new SuggestionsPanel(page);
  await panel.chooseRun(RUN);
  await panel.find();
  await expect(panel.root).toContainText("A suggestion needs 2 fixes from 2 different traces");
  // Found by its term, not its rank: other specs' reviews in the same database add suggestions
  // whose net can tie with it.
  const top = panel.suggestionOf("zorblat", "*");
  await expect(top).toHaveCount(1);
  await expect(top.getByTestId("suggestion-field")).toContainText("*");
  await expect(top.getByTestId("suggestion-field")).toContainText("every field");
  await expect(top.getByTestId("suggestion-term")).toHaveText("“zorblat”");
  await expect(top).toHaveAttribute("data-fixes", "4");
  await expect(top).toHaveAttribute("data-breaks", "1");
  // The reviewed DRIFT it would turn to ASK is named.
  await expect(top).toHaveAttribute("data-reviewed", "1");
  await expect(top.getByTestId("suggestion-reviewed")).toContainText("moves 1 reviewed field away");
  await shootFitting(page, "learning-suggestion");

  await top.getByTestId("take-suggestion").click();
  const entry = page.locator('[data-testid="lexicon-entry"][data-field="*"]');
  await expect(entry.getByTestId("every-field")).toBeVisible();
  await expect(entry.getByTestId("term")).toHaveAttribute("data-term", "zorblat");
  const whatIf = page.getByTestId("what-if");
  await expect(whatIf).toHaveAttribute("data-state", "ready");
  await expect(whatIf.getByTestId("reviewed-guard")).toHaveAttribute("data-count", "1");
  await expect(whatIf.getByTestId("reviewed-move")).toContainText("e2e_any_day: reviewed DRIFT, DRIFT → ASK");

  // Saving is refused until confirmed: the dialog names the reviewed field, nothing is saved yet.
  const before = Number(await page.getByTestId("lexicon-page").getAttribute("data-version"));
  await page.getByTestId("save-draft").click();
  const dialog = page.getByTestId("break-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("1 reviewed field away from their review");
  await expect(dialog.getByTestId("guard-reviewed")).toBeVisible();
  await shootFitting(page, "learning-guard");
  expect(Number(await page.getByTestId("lexicon-page").getAttribute("data-version"))).toBe(before);
  await dialog.getByTestId("confirm-break").click();
  // Who saves: asked once, remembered by the browser.
  await expect(page.locator('[data-testid="reviewer-dialog"]:visible')).toHaveCount(1);
  await page.keyboard.type("lena");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("lexicon-page")).toHaveAttribute("data-version", String(before + 1));
  const saved = JSON.parse(cli(["lexicon", "list", "--json"]));
  expect(saved.entries["*"]).toEqual({ terms: ["zorblat"], rule: "anywhere" });
});

test("a fenced call inside an explicit response.text is recovered and shown as the call", async ({
  page,
}) => {
  const id = traceIdsByExtId("fixtures-flags").get("explicit-fenced-call") as number;
  const trace = new TracePage(page);
  await trace.goto(id);
  await expect(page.getByTestId("trace-summary").getByTestId("flag")).toContainText(["fenced"]);
  await expect(trace.toolCall).not.toHaveAttribute("data-kind", "no_call");
  await expect(trace.toolCall.getByTestId("call-name")).toHaveText("schedule_window");
  await expect(trace.ourLabel("timezone")).toHaveText("INJECT");
  await shootFitting(page, "learning-fenced-call");
});
