import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { queryOne } from "./pages/e2eDb";

// An OTLP file whose generations were offered a tool no probe offers: every one is rejected,
// its text kept, and a probe made from one in the browser lets them in.
const TOOL = "e2e_book_room";
const attr = (key: string, v: unknown) => ({
  key,
  value: { stringValue: typeof v === "string" ? v : JSON.stringify(v) },
});
const span = (spanId: string, args: Record<string, unknown> | null) => ({
  traceId: "feedfacefeedfacefeedfacefeedface",
  spanId,
  name: "chat gpt-4o",
  startTimeUnixNano: "1788858000000000000",
  endTimeUnixNano: "1788858000500000000",
  attributes: [
    attr("gen_ai.operation.name", "chat"),
    attr("gen_ai.request.model", "gpt-4o"),
    attr("gen_ai.tool.definitions", [
      {
        type: "function",
        name: TOOL,
        parameters: {
          type: "object",
          properties: { when: { type: "string" }, room: { type: "string" } },
          required: ["when"],
        },
      },
    ]),
    attr("gen_ai.input.messages", [
      { role: "user", parts: [{ type: "text", content: "Book a room at 10." }] },
    ]),
    attr("gen_ai.output.messages", [
      {
        role: "assistant",
        parts: args
          ? [{ type: "tool_call", name: TOOL, arguments: args }]
          : [{ type: "text", content: "Which room would you like?" }],
      },
    ]),
  ],
});

test("a probe made from a rejected OTLP generation lets the rejected records in", async ({ page }) => {
  const dir = join(import.meta.dirname, ".tmp");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "unknown-tool.otlp.jsonl");
  writeFileSync(
    file,
    `${JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span("0000000000000a01", { when: "10:00", room: "4B" }), span("0000000000000a02", null)] }] }] })}\n`,
  );
  await page.goto("/upload");
  await page.getByTestId("file-input").setInputFiles(file);
  await page.getByTestId("upload-submit").click();
  await expect(page.getByTestId("upload-summary")).toContainText("2 rejected");
  const batch = queryOne<{ id: number }>("SELECT max(id) AS id FROM ingest_batches");
  await page.goto(`/ingests/${batch?.id}`);
  await page.getByTestId("ingest-errors").locator("summary").first().click();
  await page.getByTestId("make-probe-from-rejected").first().click();
  await expect(page.getByTestId("made-probe-user")).toHaveText("Book a room at 10.");
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `shots/probe-new-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId("field-room").check();
  await page.getByTestId("hidden-room").fill("4B");
  await page.getByTestId("preview-made-probe").click();
  await expect(page.getByTestId("what-if-matched")).toContainText("match 2 of the 2");
  await expect(page.getByTestId("what-if-labels-room")).toContainText("INJECT 1");
  await expect(page.getByTestId("what-if-labels-room")).toContainText("ASK 1");
  await page.screenshot({ path: "shots/probe-new-whatif-1440.png", fullPage: true });
  await page.getByTestId("save-made-probe").click();
  await expect(page).toHaveURL(/\/ingests\/\d+/);
  const t = queryOne<{ id: number }>(
    "SELECT id FROM traces WHERE probe_id = ? AND labels LIKE '%INJECT%' ORDER BY id LIMIT 1",
    TOOL,
  );
  expect(t).toBeTruthy();
  await page.goto(`/traces/${t?.id}`);
  await expect(page.locator("main")).toContainText(TOOL);
  await expect(page.getByTestId("make-probe-link")).toBeVisible();
});

test("paste a probe: a wrong path is named, a valid one saved", async ({ page }) => {
  await page.goto("/probes/paste");
  await page
    .getByTestId("paste-json")
    .fill(JSON.stringify({ id: "e2e_pasted", user: "hi", tool: { name: "" } }));
  await page.getByTestId("paste-save").click();
  await expect(page.getByTestId("paste-error")).toContainText("tool.name");
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `shots/probe-paste-${width}.png`, fullPage: true });
  }
  await page.getByTestId("paste-json").fill(JSON.stringify({ id: "e2e_pasted", user: "hi" }));
  await page.getByTestId("paste-save").click();
  await expect(page).toHaveURL(/\/probes\/e2e_pasted/);
});
