import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { cli, ingest } from "./pages/e2eDb";
import { shootFitting } from "./pages/shots";

// What a new user tripped on (filters, parameters, ids, names), through the real server and browser.

const RUN = "e2e-newuser";
const ARGS = { user_id: "u_9182", starts_at: "2026-09-08T09:00:00" };
const call = (args: Record<string, unknown>) => ({
  text: null,
  tool_calls: [{ name: "schedule_window", arguments: { ...ARGS, ...args } }],
});

/** Two probed fields (timezone, severity): humans differ from ours on both, more often on severity. */
const records = [
  { id: "n1", response: { text: "Which timezone are you in?" }, human: { timezone: "INJECT" } },
  { id: "n2", response: call({ timezone: "UTC", severity: "P3" }), human: { severity: "ASK" } },
  { id: "n3", response: call({ timezone: "UTC", severity: "medium" }), human: { severity: "ASK" } },
  { id: "n4", response: call({ severity: "P3" }), human: { severity: "ASK" } },
  { id: "n5", response: { text: "Done, booked." } },
].map((r) => ({ schema: "assumeprobe/trace@1", probe: "schedule_window", model: "m-newuser", ...r }));

const GROUP = "file:agree-probe.json";

test.beforeAll(() => {
  const file = join(mkdtempSync(join(tmpdir(), "e2e-newuser-")), "newuser.jsonl");
  writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join("\n")}\n`);
  expect(ingest(file, RUN).rejected).toBe(0);
  // The agreement spec's runs (their records have ids: a second ingest adds nothing).
  cli(["probes", "add", resolve("e2e", "fixtures", "agree-probe.json")]);
  for (const [f, run] of [
    ["agreement-a.jsonl", "e2e-agree-a"],
    ["agreement-b.jsonl", "e2e-agree-b"],
  ])
    expect(ingest(resolve("e2e", "fixtures", f), run).rejected).toBe(0);
});

const matches = async (page: Page, query: string) => {
  await page.goto(`/runs/${RUN}${query}`);
  return Number(
    ((await page.getByTestId("match-count").locator("span").first().textContent()) ?? "").replace(/\D/g, ""),
  );
};

test("the run page's field filter reads every field unless told one; field=any is every field", async ({
  page,
}) => {
  const every = await matches(page, "?field=*&human=differs");
  const timezone = await matches(page, "?field=timezone&human=differs");
  expect(every).toBeGreaterThan(timezone);
  expect(await matches(page, "?human=differs")).toBe(every);
  expect(await matches(page, "?field=any&human=differs")).toBe(every);
  await expect(page.getByTestId("filter-notice")).toHaveCount(0);
});

test("search is q or search; an unknown parameter or field is a notice on the page and a 400 from the exports", async ({
  page,
  request,
}) => {
  const q = await matches(page, "?q=timezone");
  expect(q).toBeGreaterThan(0);
  expect(await matches(page, "?search=timezone")).toBe(q);
  await expect(page.getByTestId("filter-notice")).toHaveCount(0);

  await matches(page, "?serch=timezone");
  const notice = page.getByTestId("filter-notice");
  await expect(notice).toContainText('unknown parameter "serch"');
  await expect(notice).toContainText("q (or search)");
  await shootFitting(page, "run-filter-notice");
  await matches(page, "?field=timezon");
  await expect(page.getByTestId("filter-notice")).toContainText('no field "timezon" (its fields: ');

  for (const path of [`/runs/${RUN}/export?serch=timezone`, `/api/export?run=${RUN}&serch=timezone`]) {
    const r = await request.get(path);
    expect(r.status(), path).toBe(400);
    expect(await r.text()).toMatch(/unknown parameter "serch" \(the filter takes field, .*q \(or search\)/);
  }
  const lines = async (path: string) => (await (await request.get(path)).text()).split("\n").filter(Boolean);
  const byQ = await lines(`/runs/${RUN}/export?q=timezone`);
  expect(byQ).toHaveLength(q);
  expect(await lines(`/runs/${RUN}/export?search=timezone`)).toEqual(byQ);
  expect(await lines(`/api/export?run=${RUN}&search=timezone`)).toEqual(byQ);
});

test("the trace page says so too: an unknown parameter or field is a notice, a known one none", async ({
  page,
}) => {
  await matches(page, "");
  const href = await page.locator('a[href^="/traces/"]').first().getAttribute("href");
  const path = (href ?? "").split("?")[0];
  expect(path).toMatch(/^\/traces\/\d+$/);
  await page.goto(`${path}?search=timezone&pos=1`);
  await expect(page.getByTestId("trace-page")).toBeVisible();
  await expect(page.getByTestId("filter-notice")).toHaveCount(0);
  await page.goto(`${path}?serch=timezone`);
  await expect(page.getByTestId("filter-notice")).toContainText('unknown parameter "serch"');
  await expect(page.getByTestId("filter-notice")).toContainText("q (or search)");
  await page.goto(`${path}?field=timezon&label=ASK`);
  await expect(page.getByTestId("filter-notice")).toContainText('no field "timezon" (its fields: ');
  await shootFitting(page, "trace-filter-notice");
});

test("downloads are named by run or set, variant and filter", async ({ request }) => {
  const name = async (path: string) => {
    const r = await request.get(path);
    expect(r.status(), path).toBe(200);
    return /filename="([^"]+)"/.exec(r.headers()["content-disposition"] ?? "")?.[1];
  };
  const exports = await Promise.all(
    ["", "?field=timezone", "?label=ASK", "?label=OMIT", "?field=severity&label=ASK", "?human=differs"].map(
      (q) => name(`/runs/${RUN}/export${q}`),
    ),
  );
  expect(exports[0]).toBe(`${RUN}.jsonl`);
  expect(exports[2]).toBe(`${RUN}-label-ASK.jsonl`);
  expect(new Set(exports).size).toBe(exports.length);
  const pytest = [
    await name("/fixtures/seed/export?format=pytest"),
    await name("/fixtures/seed/export?format=pytest&reference=1"),
  ];
  expect(pytest).toEqual(["test_seed.py", "test_seed_reference.py"]);
});

test("a fixture's 12-character id, as pages and fixtures check show it, opens its page", async ({ page }) => {
  const identities = cli(["fixtures", "show", "seed", "--json"])
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l).identity as string);
  expect(identities.length).toBeGreaterThan(1);
  const id = identities[0];
  const response = await page.goto(`/fixtures/seed/${id.slice(0, 12)}`);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(`/fixtures/seed/${id}`);
  await expect(page.getByTestId("fixture-page")).toHaveAttribute("data-identity", id);
  expect((await page.goto(`/fixtures/seed/${id.slice(0, 12).toUpperCase()}`))?.status()).toBe(200);
  await expect(page).toHaveURL(`/fixtures/seed/${id}`);
  expect((await page.goto("/fixtures/seed/0123456789zz"))?.status()).toBe(404);
  // A prefix two of them share lists both.
  const shared = identities
    .flatMap((x, i) => identities.slice(i + 1).map((y) => [x, y]))
    .map(([x, y]) => {
      let k = 0;
      while (x[k] === y[k]) k++;
      return x.slice(0, k);
    })
    .find((p) => p.length > 0);
  if (shared) {
    await page.goto(`/fixtures/seed/${shared}`);
    const list = page.getByTestId("fixture-prefix-matches");
    await expect(list.getByRole("link", { name: /^[0-9a-f]{64}$/ })).toHaveCount(
      identities.filter((x) => x.startsWith(shared)).length,
    );
    await shootFitting(page, "fixture-prefix-matches");
  }
});

test("the agreement page honours ?run= as the queue does", async ({ page }) => {
  const total = async (query: string) => {
    await page.goto(`/agreement?group=${encodeURIComponent(GROUP)}${query}`);
    const agrees = page
      .locator(`[data-testid="agreement-group"][data-group="${GROUP}"]`)
      .getByTestId("agrees")
      .first();
    return Number(await agrees.getAttribute("data-total"));
  };
  const all = await total("");
  const a = await total("&run=e2e-agree-a");
  // One run, one model: the per-model table holds that one (two without the scope).
  await expect(page.getByTestId("per-model").getByTestId("slice")).toHaveCount(1);
  await expect(page.locator('[data-testid="agreement-scope"] select[name="run"]')).toHaveValue("e2e-agree-a");
  await shootFitting(page, "agreement-run");
  const b = await total("&run=e2e-agree-b");
  expect(a).toBeGreaterThan(0);
  expect(b).toBeGreaterThan(0);
  expect(a + b).toBe(all);
  await page.goto("/agreement?run=no-such-run");
  await expect(page.getByTestId("unknown-run")).toContainText("no-such-run");
});

test("times on the lexicon page read as on the other pages, not raw ISO", async ({ page }) => {
  await page.goto("/lexicon");
  const times = page.locator("main time");
  if ((await times.count()) > 0) await expect(times.first()).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  expect(await page.locator("main").textContent()).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
});

test("the upload page lists a recorded label outside the vocabulary as a warning with its line", async ({
  page,
}) => {
  const file = join(mkdtempSync(join(tmpdir(), "e2e-newuser-upload-")), "labels.jsonl");
  const lines = [
    { id: "w-1", label: "ASKED", response: { text: "Which timezone should I use?" } },
    { id: "w-2", label: "ask", response: { text: "Which timezone should I use?" } },
    // A model of its own: a second run of another spec's model would change the overview's trends
    // and the compare form's default pair.
  ].map((l) => ({ ...l, model: "m-newuser-upload" }));
  writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  await page.goto("/upload");
  await page.getByTestId("file-input").setInputFiles(file);
  await page.getByTestId("run-input").fill("e2e-newuser-upload");
  await page.getByTestId("upload-submit").click();
  await expect(page.getByTestId("upload-summary")).toContainText("2 ingested");
  const warnings = page.getByTestId("upload-warnings");
  await expect(warnings.locator("li")).toHaveCount(1);
  await expect(warnings).toContainText(
    'labels.jsonl line 1: recorded label "ASKED" of timezone is not one of ASK',
  );
  await expect(page.getByTestId("upload-errors")).toHaveCount(0);
  await shootFitting(page, "upload-warnings");
});
