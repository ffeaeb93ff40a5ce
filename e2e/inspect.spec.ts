import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { buildEvalLog, inspectSample } from "../lib/testing/inspectLogs";
import { queryAll } from "./pages/e2eDb";
import { MakeProbePage } from "./pages/MakeProbePage";
import { shoot } from "./pages/shots";
import { TracePage } from "./pages/TracePage";
import { UploadPage } from "./pages/UploadPage";

// Inspect AI logs uploaded as a new user would: no format, run, model or probe. A real log from
// inspect_ai's tests is read (its bash calls find no probe), then a .eval in Inspect's own shape
// whose agent was offered a tool no probe offers: every generation is rejected, a probe is made
// in the browser from one, and its rejected records come in, every call on its trace page.
// Expected calls and texts written by hand from each file.
const REAL = join(import.meta.dirname, "..", "fixtures", "inspect", "log_message_deduplication.eval");
const TOOL = "e2e_inspect_reserve";
const EVAL = "e2e-reserve.eval";

test("a real .eval with no flags: read as an Inspect log, each generation rejected naming its zip entry", async ({
  page,
}) => {
  const upload = new UploadPage(page);
  const summary = await upload.upload({
    name: "dedup.eval",
    mimeType: "application/zip",
    buffer: readFileSync(REAL),
  });
  await expect(upload.format).toContainText("Read as an Inspect AI log");
  await expect(summary).toContainText("6 records");
  await expect(summary).toContainText("6 rejected");
  await expect(summary.getByTestId("upload-errors")).toContainText(
    "samples/0_epoch_1.json:events[8]: no probe offers the tools this generation was offered or called (bash, python)",
  );
});

test("a probe made from a rejected Inspect generation lets the log in, every call on its trace page", async ({
  page,
}) => {
  const tools = [{ name: TOOL, required: ["time"], optional: ["party_size", "area"] }];
  const log = await buildEvalLog([
    inspectSample({
      id: "r1",
      epoch: 1,
      system: "You reserve tables at Chez Nous.",
      user: "Reserve a table for 4 at 19:00.",
      tools,
      generations: [
        { content: "", calls: [{ function: TOOL, arguments: { time: "19:00", area: "terrace" } }] },
        { content: "Reserved on the terrace." },
      ],
    }),
    inspectSample({
      id: "r1",
      epoch: 2,
      system: "You reserve tables at Chez Nous.",
      user: "Reserve a table for 4 at 19:00.",
      tools,
      generations: [
        { content: "Which area would you like?" },
        { content: "", calls: [{ function: TOOL, arguments: { time: "19:00", party_size: "4" } }] },
      ],
    }),
  ]);
  const upload = new UploadPage(page);
  const summary = await upload.upload({ name: EVAL, mimeType: "application/zip", buffer: log });
  await expect(upload.format).toContainText("Read as an Inspect AI log");
  await expect(summary).toContainText("4 records");
  await expect(summary).toContainText("4 rejected");
  await expect(summary.getByTestId("upload-errors")).toContainText(
    `samples/r1_epoch_1.json:events[1]: no probe offers the tools this generation was offered or called (${TOOL})`,
  );
  // The summary lives until a reload: shot as it was left.
  await page.screenshot({ path: "shots/upload-inspect-summary-1440.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "shots/upload-inspect-summary-390.png", fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });

  await upload.openIngest();
  const make = new MakeProbePage(page);
  await make.fromFirstRejected();
  await expect(make.user).toHaveText("Reserve a table for 4 at 19:00.");
  await expect(make.tool).toHaveValue(TOOL);
  await make.probe("area", "window");
  await make.preview();
  await expect(make.matched).toContainText("match 4 of the 4");
  // The terrace the model made up is INJECT, the answer that calls nothing DRIFT, the question
  // ASK, the call with no area OMIT.
  await expect(make.labels("area")).toHaveText("area: INJECT 1, DRIFT 1, ASK 1, OMIT 1");
  await make.save();

  const traces = queryAll<{ id: number; ext_id: string; agent_step: number }>(
    "SELECT t.id, t.ext_id, t.agent_step FROM traces t WHERE t.probe_id = ? AND t.source = 'e2e-reserve' ORDER BY t.ext_id",
    TOOL,
  );
  expect(traces.map((t) => [t.ext_id, t.agent_step])).toEqual([
    ["r1:1:0", 0],
    ["r1:1:1", 1],
    ["r1:2:0", 1],
    ["r1:2:1", 0],
  ]);
  const trace = new TracePage(page);
  const expected: [string, string | null, Record<string, string> | null][] = [
    ["r1:1:0", null, { time: "19:00", area: "terrace" }],
    ["r1:1:1", "Reserved on the terrace.", null],
    ["r1:2:0", "Which area would you like?", null],
    ["r1:2:1", null, { time: "19:00", party_size: "4" }],
  ];
  for (const [ext, text, args] of expected) {
    const id = traces.find((t) => t.ext_id === ext)?.id as number;
    await trace.goto(id);
    await expect(trace.root).toContainText(ext);
    await expect(trace.root).not.toContainText("model_mismatch");
    if (args) {
      await expect(trace.toolCall).toHaveCount(1);
      await expect(trace.toolCall.getByTestId("call-name")).toHaveText(TOOL);
      for (const v of Object.values(args)) await expect(trace.toolCall).toContainText(v);
    } else {
      await expect(trace.toolCall.getByTestId("call-name")).toHaveCount(0);
      await expect(page.getByTestId("response-text")).toContainText(text as string);
    }
  }
  await shoot(page, "trace-inspect", `/traces/${traces[0].id}`);
});
