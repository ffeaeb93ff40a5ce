import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { HEAVY_SHAPES, heavyLines } from "../bench/lib/heavy";
import { E2E_DB, ingest, traceIdsByExtId } from "./pages/e2eDb";
import { TracePage } from "./pages/TracePage";

// One stored record must not stall the server: a record whose arguments hold 500,000 keys (6 MB,
// within the ingest limits) once took minutes and 2 GB to render, for every user at once.

const RUN = "e2e-heavy";
const SHAPES = ["keys-500k", "big-raw", "big-text"];
let ids: Map<string, number>;

test.beforeAll(() => {
  test.setTimeout(120_000);
  const file = resolve(dirname(E2E_DB), "heavy.jsonl");
  const shapes = HEAVY_SHAPES.filter((s) => SHAPES.includes(s.id));
  writeFileSync(file, `${heavyLines(RUN, shapes).join("\n")}\n`);
  const s = ingest(file, RUN);
  expect(s.rejected, JSON.stringify(s.errors)).toBe(0);
  ids = traceIdsByExtId(RUN);
});

const idOf = (ext: string) => {
  const v = ids.get(ext);
  if (v === undefined) throw new Error(`no trace ${ext}`);
  return v;
};

test("the 500,000-key trace opens quickly, says what it cut, and another request is answered meanwhile", async ({
  page,
  request,
}) => {
  const heavy = idOf("keys-500k");
  const started = Date.now();
  const opening = page.goto(`/traces/${heavy}`);
  // A second user, while the heavy page is being made.
  const other = await request.get(`/traces/${idOf("plain-1")}`, { timeout: 10_000 });
  expect(other.status()).toBe(200);
  const res = await opening;
  expect(res?.status()).toBe(200);
  expect(Date.now() - started, "the heavy page answers within seconds").toBeLessThan(15_000);
  expect(((await res?.text()) ?? "").length, "the page's HTML stays bounded").toBeLessThan(1_500_000);

  const tp = new TracePage(page);
  // The probed field sits after 500,000 other keys: it is shown, marked and labelled anyway.
  await expect(tp.argRow("timezone")).toBeVisible();
  await expect(tp.argRow("timezone")).toHaveAttribute("data-marks", "bait");
  await expect(page.getByTestId("arg-row")).toHaveCount(101);
  const note = page.getByTestId("arguments-left-out");
  await expect(note).toHaveAttribute("data-total", "500003");
  await expect(note).toContainText("showing 101 of 500,003 arguments");
  await expect(page.getByTestId("record-downloads")).toBeVisible();

  // The download is the record byte for byte.
  const href = await note.getByTestId("download-record").getAttribute("href");
  const download = await request.get(href ?? "");
  expect(download.status()).toBe(200);
  expect(download.headers()["content-disposition"]).toContain("attachment");
  expect((await download.body()).length).toBeGreaterThan(6_000_000);

  // "show more" pages through the arguments, 200 at a time.
  await note.getByTestId("show-more").click();
  await expect(page.getByTestId("json-summary")).toHaveAttribute("data-total", "500003");
  await expect(page.getByTestId("json-entry")).toHaveCount(200);
  await page.getByTestId("json-next").click();
  await expect(page.getByTestId("json-entry").first()).toContainText("k000198");

  if (process.env.SHOTS) {
    mkdirSync("shots", { recursive: true });
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/traces/${heavy}`);
      await page.screenshot({ path: `shots/heavy-trace-${width}.png` });
      await page.getByTestId("arguments-left-out").scrollIntoViewIfNeeded();
      await page.screenshot({ path: `shots/heavy-trace-cut-${width}.png` });
      await page.goto(`/traces/${heavy}/json?part=response&path=%2Ftool_calls%2F0%2Farguments&from=250000`);
      await page.screenshot({ path: `shots/heavy-json-${width}.png` });
    }
  }
});

test("a big raw payload and a 7 MB text are cut on the page and whole in their downloads", async ({
  page,
  request,
}) => {
  const raw = idOf("big-raw");
  const res = await page.goto(`/traces/${raw}`);
  expect(((await res?.text()) ?? "").length).toBeLessThan(1_500_000);
  await page.getByTestId("raw-details").locator("summary").click();
  await expect(page.getByTestId("raw-json")).toContainText("more keys");
  const payload = await request.get(`/traces/${raw}/raw`);
  expect(payload.status()).toBe(200);
  const body = JSON.parse(await payload.text()) as { extra: Record<string, number> };
  expect(Object.keys(body.extra)).toHaveLength(500_000);

  const text = idOf("big-text");
  await page.goto(`/traces/${text}`);
  await expect(page.getByTestId("response-text")).toBeVisible();
  // The ask term is in the middle of the text, far past what is shown: found all the same.
  await expect(page.getByTestId("ask-terms-field").first()).toHaveAttribute("data-found", "yes");
  await expect(page.getByTestId("cut-note").first()).toBeVisible();
});

test("the run page holding the heavy traces stays small and quick", async ({ page }) => {
  const started = Date.now();
  const res = await page.goto(`/runs/${RUN}`);
  expect(res?.status()).toBe(200);
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(((await res?.text()) ?? "").length).toBeLessThan(500_000);
  await expect(page.getByTestId("trace-row")).toHaveCount(6);
});
