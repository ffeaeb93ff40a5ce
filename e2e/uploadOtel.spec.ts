import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { cli, queryOne } from "./pages/e2eDb";

const FILE = join(import.meta.dirname, "..", "fixtures", "testdata", "otel", "genai.otlp.json");

// The shared e2e database holds e2e_agree beside schedule_window, both offering the file's tool:
// the probe is chosen on the form (resolution by tools alone: e2e/uploadCapturedOtel.spec.ts and
// lib/cli/cliOtel.test.ts).
test.beforeAll(() => {
  cli(["probes", "add", join(import.meta.dirname, "fixtures", "agree-probe.json")]);
});

test("uploads an OTLP file: read as OTLP, each generation a trace, its original the span's bytes", async ({
  page,
  request,
}) => {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/upload");
    await page.getByTestId("file-input").setInputFiles(FILE);
    await page.getByTestId("probe-select").selectOption("schedule_window");
    await page.getByTestId("run-input").fill("e2e-otlp");
    await page.getByTestId("upload-submit").click();
    const summary = page.getByTestId("upload-summary");
    await expect(summary.getByTestId("summary-format")).toContainText("Read as OTLP JSON");
    await expect(summary.getByTestId("summary-format")).toContainText(
      "2 spans that are no model generation skipped",
    );
    await expect(summary).toContainText("2 records");
    await expect(summary).toContainText(width === 1440 ? "2 ingested" : "2 already stored");
    await expect(summary.getByTestId("summary-run")).toHaveAttribute("href", "/runs/e2e-otlp");
    await page.screenshot({ path: `shots/upload-otlp-${width}.png`, fullPage: true });
  }

  const first = queryOne<{ id: number }>(
    "SELECT t.id FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = 'e2e-otlp' ORDER BY t.id LIMIT 1",
  );
  expect(first).toBeTruthy();
  await page.goto(`/traces/${first?.id}`);
  await expect(page.locator("main")).toContainText("schedule_window");
  // The original record is the span's own bytes, as they stand in the file.
  const original = await (await request.get(`/traces/${first?.id}/record`)).text();
  expect(JSON.parse(original).name).toBe("chat gpt-4o");
  expect(readFileSync(FILE, "utf8").includes(original)).toBe(true);
});
