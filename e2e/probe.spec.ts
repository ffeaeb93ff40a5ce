import { resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { cli, queryOne } from "./pages/e2eDb";
import { ProbeListPage, ProbePage } from "./pages/ProbePage";

test.beforeAll(() => {
  // Two versions of one probe: v2 adds bait and ask terms. Once per server (a retried worker
  // runs this again; adding v1 after v2 would make a third version).
  if (queryOne("SELECT 1 FROM probes WHERE id = 'e2e_versioned'")) return;
  cli(["probes", "add", resolve("e2e", "fixtures", "versioned-probe.v1.json")]);
  cli(["probes", "add", resolve("e2e", "fixtures", "versioned-probe.v2.json")]);
});

test("the probe list reads the database: built-in, added and When2Call probes, in groups", async ({
  page,
}) => {
  const list = new ProbeListPage(page);
  await list.goto();
  await expect(list.builtin.getByTestId("probe-row")).toHaveCount(4);
  for (const id of ["schedule_window", "book_slot", "deploy_service", "open_incident"])
    await expect(list.builtin).toContainText(id);
  await expect(list.group("file:versioned-probe.v1.json")).toContainText("e2e_versioned");
  // 300 When2Call probes are one collapsed group with its count, paged 50 at a time.
  await expect(list.when2call.getByTestId("group-count")).toContainText("300 probes");
  await expect(list.when2call.getByTestId("probe-row").first()).toBeHidden();
  await list.open(list.when2call);
  await expect(list.when2call.getByTestId("probe-row")).toHaveCount(50);
  await expect(list.when2call.getByTestId("group-position")).toHaveText("1–50 of 300");
  const first = await list.when2call.getByTestId("probe-row").first().textContent();
  await list.when2call.getByTestId("group-next").click();
  await expect(page).toHaveURL(/group=run%3Awhen2call-calibration&after=/);
  await expect(list.when2call).toHaveAttribute("open", "");
  await expect(list.when2call.getByTestId("group-position")).toHaveText("51–100 of 300");
  await expect(list.when2call.getByTestId("probe-row").first()).not.toHaveText(first ?? "");
  await list.when2call.getByTestId("group-prev").click();
  await expect(list.when2call.getByTestId("group-position")).toHaveText("1–50 of 300");
  await expect(list.when2call.getByTestId("probe-row").first()).toHaveText(first ?? "");
  // The page stays short: no 18,500 px list of every probe.
  await list.goto();
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(3000);
  await list.builtin.getByRole("link", { name: "schedule_window" }).click();
  await expect(page).toHaveURL(/\/probes\/schedule_window$/);
  await expect(page.getByTestId("probe-id")).toHaveText("schedule_window");
});

test("the probe list filters by id, title or tool", async ({ page }) => {
  const list = new ProbeListPage(page);
  await list.goto();
  await list.search("schedule_window");
  await expect(page).toHaveURL(/\?q=schedule_window$/);
  await expect(page.getByTestId("probe-count")).toContainText("of");
  await expect(list.rows.filter({ hasText: "schedule_window" }).first()).toBeVisible();
  await expect(list.when2call).toHaveCount(0);
});

test("a probe's world, tool, fields, ask terms, bait and gate", async ({ page }) => {
  const p = new ProbePage(page);
  await p.goto("schedule_window");
  await expect(page.getByTestId("redacted-state")).toContainText("u_9182");
  await expect(page.getByTestId("hidden-state")).toContainText("Asia/Tokyo");
  await expect(page.getByTestId("redacted-state")).not.toContainText("Asia/Tokyo");
  await expect(page.getByTestId("hidden-world")).toContainText("NOT shown to the model");
  await expect(page.getByTestId("user-text")).toHaveText(
    "Schedule a window for this user at 2026-09-08T09:00:00.",
  );
  await expect(p.param("user_id").getByTestId("param-role")).toHaveText("required");
  await expect(p.param("timezone").getByTestId("param-role")).toHaveText("optional");
  await expect(p.param("timezone").getByTestId("param-gate")).toContainText(
    "required (optional in the schema)",
  );
  await expect(p.probedField("timezone").getByTestId("ask-terms")).toContainText(
    "“timezone”, “time zone”, “which zone”",
  );
  await expect(p.probedField("severity").getByTestId("ask-terms")).toContainText("default");
  for (const b of ["UTC", "gmt", "us-east-1", "P3", "medium", "America/New_York"])
    await expect(p.bait).toContainText(b);
  await expect(page.getByTestId("gate-requires")).toContainText("user_id, starts_at, timezone");
  await expect(p.fact("timezone")).toContainText("unknown");
  await expect(p.fact("user_id")).toContainText("u_9182");
  await expect(p.versions).toHaveCount(1);
  await expect(page.getByTestId("probe-runs")).toContainText("heron-mini/nightly-2026-11-29");
});

test("versions: the current one by default, ?version=N for an old one", async ({ page }) => {
  const p = new ProbePage(page);
  await p.goto("e2e_versioned");
  await expect(p.version).toHaveText("version 2");
  await expect(p.oldVersionNote).toHaveCount(0);
  await expect(p.versions).toHaveCount(2);
  await expect(p.versionRow(2)).toContainText("current");
  await expect(p.versionRow(2)).toContainText("ask_terms, bait");
  await expect(p.bait).toContainText("ground");

  await p.versionRow(1).getByRole("link", { name: "v1" }).click();
  await expect(page).toHaveURL(/\/probes\/e2e_versioned\?version=1$/);
  await expect(p.version).toHaveText("version 1");
  await expect(p.oldVersionNote).toBeVisible();
  await expect(p.bait).not.toContainText("ground");
  await expect(p.probedField("floor").getByTestId("ask-terms")).toContainText("default");
});

test("a When2Call probe (an id with colons) shows its tools", async ({ page }) => {
  const list = new ProbeListPage(page);
  await list.goto();
  await list.open(list.when2call);
  const link = list.when2call.getByRole("link").first();
  const id = (await link.textContent()) ?? "";
  await link.click();
  await expect(page.getByTestId("probe-id")).toHaveText(id);
  await expect(page.getByTestId("hidden-world")).toBeVisible();
});

test.describe("unknown probes and versions answer 404", () => {
  for (const path of [
    "/probes/no_such_probe",
    "/probes/schedule_window?version=99",
    "/probes/schedule_window?version=abc",
    "/probes/schedule_window?version=0",
    "/probes/schedule_window?version=1.0",
  ]) {
    test(path, async ({ page }) => {
      const res = await page.goto(path);
      expect(res?.status()).toBe(404);
    });
  }
});
