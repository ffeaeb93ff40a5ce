import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, type Page, test } from "@playwright/test";
import { cliStatus, traceIdsByExtId } from "./pages/e2eDb";
import { shoot } from "./pages/shots";

// Issue 27: a decision log written by the built assumeprobe/gate/node entry, ingested with the CLI,
// shown on the overview apart from probe runs and filtered on its run page.

test.describe.configure({ mode: "serial" });

const RUN = "agent-gate-e2e";
const dir = resolve(process.env.E2E_TMP ?? "e2e/.tmp", "gate-log");
const gate = pathToFileURL(resolve("dist", "gate", "gate.mjs")).href;
const node = pathToFileURL(resolve("dist", "gate", "node.mjs")).href;

/** An agent's turns through the gate: 2 allowed, 4 blocked (3 with action_date unknown, 1 on a conflict). */
function writeLog(): string {
  mkdirSync(dir, { recursive: true });
  const log = join(dir, "gate.jsonl");
  const script = join(dir, "agent.mjs");
  writeFileSync(
    script,
    `import { fact, sideEffect } from ${JSON.stringify(gate)};
import { fileSink } from ${JSON.stringify(node)};
const book = sideEffect(["user_id", "action_date"], function book_slot(state, room) { return room; },
  { log: fileSink(${JSON.stringify(log)}, { model: "qwen3-8b" }) });
const k = (v) => fact.known(v, "session");
const turns = [
  { user_id: k("u_1"), action_date: k("2026-09-08") },
  { user_id: k("u_1"), action_date: fact.unknown() },
  { user_id: k("u_2"), action_date: fact.unknown() },
  { user_id: fact.conflict("u_3"), action_date: k("2026-09-09") },
  { user_id: k("u_4"), action_date: k("2026-09-10") },
  { user_id: fact.unknown(), action_date: fact.unknown() },
];
for (const s of turns) { try { book(s, "room_9"); } catch {} }
`,
  );
  execFileSync(process.execPath, [script]);
  // An agent whose gate let a call through on an unknown fact: our gate decides otherwise.
  const first = JSON.parse(readFileSync(log, "utf8").split("\n")[0]);
  first.id = "wrong-allow";
  first.world_state.action_date = { status: "unknown" };
  appendFileSync(log, `${JSON.stringify(first)}\n{"schema":"assumeprobe/gate@1","tool":"book_slot"}\n`);
  return log;
}

async function listed(page: Page): Promise<number> {
  return page.getByTestId("trace-row").count();
}

test("the overview says there are no gate decision logs yet", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("gate-logs-empty")).toBeVisible();
  await expect(page.getByTestId("runs-table")).toBeVisible();
});

test("an ingested decision log is a gate-log run on the overview, apart from the probe runs", async ({
  page,
}) => {
  const r = cliStatus(["ingest", writeLog(), "--run", RUN, "--json", "--no-progress"]);
  const summary = JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "{}");
  expect(summary).toMatchObject({ records: 8, ingested: 7, rejected: 1 });
  expect(summary.errors[0]).toMatchObject({ line: 8 });
  await page.goto("/");
  const row = page.locator(`[data-testid="gate-log-row"][data-run="${RUN}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId("gate-log-decisions")).toHaveText("7");
  // 4 of 7 recorded as blocked, with the interval in the title.
  await expect(row.getByTestId("gate-log-block-rate")).toContainText("57%");
  await expect(row.getByTestId("gate-log-block-rate")).toHaveAttribute("title", /4 of 7 · 95% interval/);
  await expect(row.getByTestId("gate-log-mismatch")).toHaveText("1");
  await expect(row.getByTestId("gate-log-unknown").locator("li").first()).toContainText("action_date 3");
  await expect(page.getByTestId("gate-logs-empty")).toHaveCount(0);
  // Not among the probe runs.
  await expect(page.locator(`[data-testid="run-row"][data-run="${RUN}"]`)).toHaveCount(0);
  await shoot(page, "gate-log-overview");
});

test("the run page's gate filter shows allowed, blocked and mismatched decisions", async ({ page }) => {
  await page.goto(`/runs/${RUN}`);
  await expect(page.getByTestId("gate-log-summary")).toBeVisible();
  await expect(page.getByTestId("gate-log-unknown")).toContainText("action_date");
  await expect.poll(() => listed(page)).toBe(7);
  const gateSelect = page.getByTestId("filter-gate");
  await expect(page.getByTestId("filter-label")).toHaveCount(0);
  await gateSelect.selectOption("block");
  await expect(page).toHaveURL(/gate=block/);
  await expect.poll(() => listed(page)).toBe(4);
  await gateSelect.selectOption("allow");
  await expect.poll(() => listed(page)).toBe(3);
  await gateSelect.selectOption("mismatch");
  await expect(page).toHaveURL(/gate=mismatch/);
  await expect.poll(() => listed(page)).toBe(1);
  const row = page.getByTestId("trace-row");
  await expect(row.getByTestId("recorded-verdict")).toContainText("allow");
  await expect(row.getByTestId("our-verdict")).toContainText("block");
  await expect(page.getByTestId("rejected-lines")).toContainText("line 8");
  await page.goto(`/runs/${RUN}`);
  await shoot(page, "gate-log-run");
});

test("the trace page shows a decision: tool, call, world state, both verdicts", async ({ page }) => {
  const id = traceIdsByExtId(RUN).get("wrong-allow");
  await page.goto(`/traces/${id}?gate=mismatch`);
  const d = page.getByTestId("gate-log-decision");
  await expect(d.getByTestId("gate-log-tool")).toHaveText("book_slot");
  await expect(d.getByTestId("recorded-verdict")).toContainText("allow");
  await expect(d.getByTestId("our-verdict")).toContainText("block → ask");
  await expect(d.getByTestId("our-verdict")).toContainText("action_date unknown");
  await expect(d.getByTestId("gate-mismatch-note")).toBeVisible();
  await expect(d.getByTestId("gate-log-facts")).toContainText("u_1");
  await expect(d.getByTestId("gate-log-arguments")).toContainText("room_9");
  await expect(page.getByTestId("probe-link")).toHaveCount(0);
  await shoot(page, "gate-log-trace");
});

test("an uploaded decision log goes through the same pipeline: a gate-log run, its bad line rejected", async ({
  page,
  request,
}) => {
  const log = readFileSync(join(dir, "gate.jsonl"), "utf8");
  const res = await request.post("/api/upload?filename=uploaded-gate.jsonl", { data: log });
  expect(res.status()).toBe(200);
  const summary = await res.json();
  expect(summary).toMatchObject({ records: 8, ingested: 7, rejected: 1, runs: [{ name: "uploaded-gate" }] });
  expect(summary.errors[0]).toMatchObject({ line: 8 });
  expect(summary.errors[0].reason).toMatch(/^gate decision: /);
  await page.goto("/runs/uploaded-gate?gate=mismatch");
  await expect.poll(() => listed(page)).toBe(1);
  await page.goto("/");
  await expect(page.locator('[data-testid="gate-log-row"][data-run="uploaded-gate"]')).toBeVisible();
  await expect(page.getByTestId("gate-logs-total")).toContainText("14 decisions in 2 logs");
});
