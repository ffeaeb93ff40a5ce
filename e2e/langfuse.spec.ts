import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { queryOne } from "./pages/e2eDb";
import { MakeProbePage } from "./pages/MakeProbePage";
import { SHOTS_DIR, shoot } from "./pages/shots";
import { TracePage } from "./pages/TracePage";
import { UploadPage } from "./pages/UploadPage";

// A real Langfuse "Download JSON" of a pydantic-ai agent (fixtures/langfuse/SOURCES.md), uploaded as
// a new user would: no format, run, model or probe. Its four generations offer tools no probe
// offers yet, so they are rejected naming them; with a probe for those tools pasted, the same
// upload stores all four, and each call is on its generation's trace page.
// Expected calls and texts written by hand from the file.
const NAME = "pydantic-ai-tools-2025-12-04.trace.json";
const FILE = readFileSync(join(import.meta.dirname, "..", "fixtures", "langfuse", NAME));
const TRACE = "7a38edd8123db47ad8dcb8aa4c5e3926";
const JOKE_TOOLS = [
  "get_pun_suggestion",
  "get_dad_joke_suggestion",
  "get_one_liner_suggestion",
  "get_car_joke_suggestion",
  "get_tree_joke_suggestion",
];
const topicTool = (name: string) => ({
  name,
  description: `${name} for a topic`,
  parameters: { type: "object", properties: { topic: { type: "string" } } },
  mutating: false,
});
const PROBE = {
  id: "e2e_lf_jokes",
  system: "You are a creative joke writer.",
  user: "Select and call THREE of the available tools to get joke suggestions about 'programming'.",
  hidden: { topic: "programming" },
  redacted: {},
  tool: topicTool("get_pun_suggestion"),
  tools: [
    ...JOKE_TOOLS.map(topicTool),
    {
      name: "final_result",
      description: "The critic's verdict",
      parameters: {
        type: "object",
        properties: { quality: { type: "string" }, feedback: { type: "string" } },
      },
      mutating: false,
    },
  ],
  fields: ["topic"],
};

test("a Langfuse trace export uploaded with no flags: read as Langfuse, every call on its trace page", async ({
  page,
}) => {
  const upload = new UploadPage(page);
  await upload.upload({ name: NAME, mimeType: "application/json", buffer: FILE });
  await expect(upload.format).toContainText("Read as Langfuse export");
  await expect(upload.format).toContainText("8 observations that are no generation skipped");
  await expect(upload.summary).toContainText("4 records: 0 ingested, 0 already stored, 4 rejected");
  await expect(upload.errors).toContainText(
    "no probe offers the tools this generation was offered or called (final_result)",
  );

  await page.goto("/probes/paste");
  await page.getByTestId("paste-json").fill(JSON.stringify(PROBE));
  await page.getByTestId("paste-save").click();
  await expect(page).toHaveURL(/\/probes\/e2e_lf_jokes/);

  await upload.upload({ name: NAME, mimeType: "application/json", buffer: FILE });
  await expect(upload.summary).toContainText("4 records: 4 ingested, 0 already stored, 0 rejected");
  await expect(upload.runs).toHaveCount(1);
  await expect(upload.runs.first()).toHaveText("pydantic-ai-tools-2025-12-04.trace");
  // The summary lives in the page's state: looked at without a reload, at both widths.
  await page.screenshot({ path: join(SHOTS_DIR, "upload-langfuse-1440.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(SHOTS_DIR, "upload-langfuse-390.png"), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });

  const traceOf = (observation: string) =>
    queryOne<{ id: number }>("SELECT id FROM traces WHERE ext_id = ?", `${TRACE}:${observation}`)?.id;
  const trace = new TracePage(page);

  // Three calls in one generation: the first is scored, the other two listed beside it.
  await trace.goto(traceOf("be64c23f44dd98be") ?? 0);
  await expect(trace.toolCall.getByTestId("call-name")).toHaveText("get_pun_suggestion");
  await expect(trace.argRow("topic")).toContainText("programming");
  const others = page.getByTestId("other-calls");
  await others.locator("summary").click();
  await expect(others).toContainText("get_dad_joke_suggestion");
  await expect(others).toContainText("get_one_liner_suggestion");
  await shoot(page, "trace-langfuse");

  // The critic's structured answer, a call of the output tool.
  await trace.goto(traceOf("eb0cc14cf7943ad5") ?? 0);
  await expect(trace.toolCall.getByTestId("call-name")).toHaveText("final_result");
  await expect(trace.argRow("quality")).toContainText("good");

  // The two texts: no call, the text as the generation wrote it.
  await trace.goto(traceOf("8976b072313c51f2") ?? 0);
  await expect(trace.toolCall).toHaveAttribute("data-kind", "no_call");
  await expect(page.getByTestId("response-text")).toContainText("Why do programmers hate nature?");
  await trace.goto(traceOf("00d2804abb764b1b") ?? 0);
  await expect(page.getByTestId("response-text")).toContainText("I gathered some great ideas");
});

// A real Vercel AI SDK export whose one tool's one property is required (getWeather(location)): a
// probe is made from it in the browser, probing the required property the user may leave out, and
// the rejected generation is ingested with it. Expected labels written by hand: the user named San
// Francisco and the model passed it on, which the rules call INJECT (typed_by_user): the visible set
// holds the user's single words ("san", "francisco"), never a value of two words.
test("a probe made in the browser from a real Langfuse generation, probing a required property", async ({
  page,
}) => {
  const name = "vercel-aisdk-2025-11-17.trace.json";
  const upload = new UploadPage(page);
  await upload.upload({
    name,
    mimeType: "application/json",
    buffer: readFileSync(join(import.meta.dirname, "..", "fixtures", "langfuse", name)),
  });
  await expect(upload.summary).toContainText("1 record: 0 ingested, 0 already stored, 1 rejected");
  await expect(upload.errors).toContainText("(getWeather)");

  await upload.openIngest();
  const make = new MakeProbePage(page);
  await make.fromFirstRejected();
  await expect(make.tool).toHaveValue("getWeather");
  await expect(make.user).toContainText("What is the weather like today in San Francisco?");
  await expect(page.getByTestId("field-location").locator("..")).toContainText("required");
  await make.probe("location", "Oakland");
  await make.preview();
  await expect(make.matched).toContainText("match 1 of the 1");
  await expect(make.labels("location")).toHaveText("location: INJECT 1");
  await shoot(page, "make-probe-langfuse");
  await make.save();

  const t = queryOne<{ id: number; probe_id: string }>(
    "SELECT id, probe_id FROM traces WHERE source = 'vercel-aisdk-2025-11-17.trace'",
  );
  expect(t?.probe_id).toBe("getWeather");
  const trace = new TracePage(page);
  await trace.goto(t?.id ?? 0);
  await expect(trace.toolCall.getByTestId("call-name")).toHaveText("getWeather");
  await expect(trace.argRow("location")).toContainText("San Francisco");
});
