import { resolve } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { ingest, traceIdsByExtId } from "./pages/e2eDb";
import { RunPage } from "./pages/RunsPage";
import { TracePage } from "./pages/TracePage";

// Issue 17: the trace flags unparsed_call and unrecognized_payload, and placeholder calls, in the
// dashboard. The records name their runs (fixtures-flags, fixtures-flags-2).

const RUN = "fixtures-flags";
let ids: Map<string, number>;
const id = (ext: string) => {
  const v = ids.get(ext);
  if (v === undefined) throw new Error(`no trace ${ext} in ${RUN}`);
  return v;
};

test.beforeAll(() => {
  const s = ingest(resolve("fixtures", "testdata", "flags.jsonl"), RUN);
  expect(s.rejected, JSON.stringify(s.errors)).toBe(0);
  ids = traceIdsByExtId(RUN);
});

/** Full-page shots at 1440 and 390 px; with `part`, that element too, which must fit 390 px. */
async function shoot(page: Page, name: string, part?: string) {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `shots/flags-${name}-${width}.png`, fullPage: true });
    if (!part) continue;
    const el = page.getByTestId(part);
    await el.screenshot({ path: `shots/flags-${name}-${part}-${width}.png` });
    const box = await el.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

async function listedIds(page: Page): Promise<number[]> {
  const links = page.getByTestId("trace-row").getByTestId("trace-link");
  return (await links.allTextContents()).map((t) => Number(t.replace("#", "")));
}

test("the run page filters by each new flag", async ({ page }) => {
  const run = new RunPage(page);
  await run.goto(RUN);
  await run.select("flag").selectOption("unparsed_call");
  await expect(page).toHaveURL(/flag=unparsed_call/);
  const unparsed = [
    "broken-fence-trailing-comma",
    "broken-unfenced-truncated",
    "python-dict-call",
    "hermes-text-call",
    "valid-block-naming-field",
    "python-code-block",
  ].map(id);
  await expect.poll(() => listedIds(page)).toEqual(unparsed);
  await expect(run.count).toContainText("6");
  await shoot(page, "run-unparsed");

  await run.goto(RUN, "flag=unrecognized_payload");
  // Gemini's, Cohere's, Bedrock's and Ollama's payloads are read (issue 22): only the error body is left.
  const unknown = ["error-body"];
  await expect.poll(() => listedIds(page)).toEqual(unknown.map(id));
  // Combined with a label (the flag has no signature bit: the filter checks it exactly).
  await run.goto(RUN, "flag=unrecognized_payload&field=timezone&label=DRIFT");
  await expect.poll(() => listedIds(page)).toEqual(unknown.map(id));
  await run.goto(RUN, "flag=unrecognized_payload&field=timezone&label=ASK");
  await expect(run.rows).toHaveCount(0);
});

test("the trace page marks the broken block behind unparsed_call", async ({ page }) => {
  const trace = new TracePage(page);
  await trace.goto(id("broken-fence-trailing-comma"));
  // Its keys sit inside a fenced code block: they never count toward ask terms.
  await expect(trace.ourLabel("timezone")).toHaveText("DRIFT");
  await expect(page.getByTestId("trace-summary").getByTestId("flag")).toContainText(["unparsed_call"]);
  const block = page.getByTestId("call-like-block");
  await expect(block).toHaveCount(1);
  await expect(block).toHaveAttribute("data-kind", "fenced");
  await expect(block).toHaveAttribute("data-reading", "not_json");
  await expect(block).toContainText("does not parse as JSON");
  await expect(block.getByTestId("call-like-name")).toHaveText(["schedule_window", "timezone"]);
  await expect(block.getByTestId("call-like-text")).toContainText('"timezone": "UTC",}}');
  await shoot(page, "trace-unparsed", "parse-notes");
});

test("the trace page explains an unrecognized payload", async ({ page }) => {
  const trace = new TracePage(page);
  await trace.goto(id("error-body"));
  await expect(trace.ourLabel("timezone")).toHaveText("DRIFT");
  const note = page.getByTestId("unrecognized-payload");
  await expect(note).toContainText("no call could be looked for");
  await expect(note.getByTestId("payload-hint")).toContainText("an error body");
  await expect(note.getByTestId("payload-keys")).toHaveText("error");
  await expect(page.getByTestId("call-like-block")).toHaveCount(0);
  await shoot(page, "trace-unrecognized", "parse-notes");

  // A Gemini call is read and scored as the call it is, with no such note.
  await trace.goto(id("gemini-call"));
  await expect(trace.ourLabel("timezone")).toHaveText("INJECT");
  await expect(page.getByTestId("unrecognized-payload")).toHaveCount(0);
});

test("a placeholder call beside a text answer is no call", async ({ page }) => {
  const trace = new TracePage(page);
  await trace.goto(id("placeholder-chat-ask"));
  await expect(trace.ourLabel("timezone")).toHaveText("ASK");
  await expect(trace.toolCall).toHaveAttribute("data-kind", "no_call");
  await expect(page.getByTestId("parse-notes")).toHaveCount(0);
});
