import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { A, agentTurnsFile, B } from "../lib/testing/otlpFiles";
import { ingest, traceIdsByExtId } from "./pages/e2eDb";
import { RunPage } from "./pages/RunsPage";
import { TracePage } from "./pages/TracePage";

// Issue 22, agent turns: an agent's OTLP file (a turn of three generations with the call in the
// second, a turn of two with no call) in the dashboard.

const RUN = "e2e-agent-turns";
let ids: Map<string, number>;

test.beforeAll(() => {
  const file = join(mkdtempSync(join(tmpdir(), "assumeprobe-e2e-agent-")), "agent.otlp.jsonl");
  writeFileSync(file, agentTurnsFile());
  const s = ingest(file, RUN);
  expect(s.rejected, JSON.stringify(s.errors)).toBe(0);
  ids = traceIdsByExtId(RUN);
});

async function shoot(page: Page, name: string) {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `shots/agent-turns-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

const idOf = (ext: string) => ids.get(ext) as number;

test("the run page counts one generation per turn and filters the agent steps", async ({ page }) => {
  const run = new RunPage(page);
  await run.goto(RUN);
  await expect(run.rows).toHaveCount(5);
  await expect(page.getByTestId("agent-steps")).toHaveText("3 agent steps not counted");
  await shoot(page, "run");
  await run.select("flag").selectOption("agent_step");
  await expect(page).toHaveURL(/flag=agent_step/);
  await expect(run.rows).toHaveCount(3);
  const listed = (await page.getByTestId("trace-row").getByTestId("trace-link").allTextContents())
    .map((t) => Number(t.replace("#", "")))
    .sort((x, y) => x - y);
  expect(listed).toEqual([idOf(`${A}:a1`), idOf(`${A}:a3`), idOf(`${B}:b1`)].sort((x, y) => x - y));
  await shoot(page, "run-steps");
});

test("the trace page shows the agent_step flag with its meaning", async ({ page }) => {
  const trace = new TracePage(page);
  await trace.goto(idOf(`${A}:a1`));
  const flag = page.locator("main").getByTestId("flag").filter({ hasText: "agent_step" });
  await expect(flag).toHaveCount(1);
  await expect(flag).toHaveAttribute("title", /counts in the rates/);
  await shoot(page, "trace-step");
  await trace.goto(idOf(`${A}:a2`));
  await expect(page.locator("main").getByTestId("flag").filter({ hasText: "agent_step" })).toHaveCount(0);
});
