import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { cli, queryOne } from "./pages/e2eDb";

// The OTLP JSON OpenLLMetry's and OpenInference's OpenAI instrumentations wrote themselves
// (scripts/capture-otel.ts), uploaded as a new user would: no run name, no model.
// Expected calls and texts written by hand from the files.
const DIR = join(import.meta.dirname, "..", "fixtures", "testdata", "otel");

// The shared e2e database also holds e2e_agree, a second probe offering schedule_window: there an
// upload with no probe is refused naming both (as DESIGN.md's probe resolution says), and the
// probe is chosen on the form. With one candidate no flag is needed (lib/cli/cliOtelCaptured.test.ts).
test.beforeAll(() => {
  cli(["probes", "add", join(import.meta.dirname, "fixtures", "agree-probe.json")]);
});

for (const [name, run] of [
  ["openllmetry-openai.otlp.jsonl", "openllmetry-openai.otlp"],
  ["openinference-openai.otlp.jsonl", "openinference-openai.otlp"],
] as const) {
  test(`uploads ${name} with no run or model: both generations scored, the call and the question on their trace pages`, async ({
    page,
  }) => {
    await page.goto("/upload");
    await page.getByTestId("file-input").setInputFiles(join(DIR, name));
    await page.getByTestId("upload-submit").click();
    const summary = page.getByTestId("upload-summary");
    await expect(summary.getByTestId("summary-format")).toContainText("Read as OTLP JSON");
    await expect(summary).toContainText("2 rejected");
    await expect(summary).toContainText("several probes offer the tools");
    // Every probe offering the tool is named (other specs add more of them), then how to choose.
    await expect(summary).toContainText(/: e2e_agree, (\S+, )*schedule_window; choose one with --probe ID/);

    await page.goto("/upload");
    await page.getByTestId("file-input").setInputFiles(join(DIR, name));
    await page.getByTestId("probe-select").selectOption("schedule_window");
    await page.getByTestId("upload-submit").click();
    await expect(summary.getByTestId("summary-format")).toContainText("Read as OTLP JSON");
    await expect(summary).toContainText("2 records");
    await expect(summary).toContainText("2 ingested");
    await expect(summary.getByTestId("summary-run")).toHaveAttribute("href", `/runs/${run}`);

    const ids = [0, 1].map(
      (n) =>
        queryOne<{ id: number }>(
          `SELECT t.id FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = '${run}' ORDER BY t.id LIMIT 1 OFFSET ${n}`,
        )?.id,
    );
    await page.goto(`/traces/${ids[0]}`);
    const main = page.locator("main");
    // The call, with its arguments, in the response (not only in the original record's request).
    const call = page.getByTestId("tool-call");
    await expect(call).toHaveCount(1);
    await expect(call.getByTestId("call-name")).toHaveText("schedule_window");
    await expect(call).toContainText("u_9182");
    await expect(call).toContainText("2026-09-08T09:00:00");
    await expect(main).toContainText("INJECT");
    await page.goto(`/traces/${ids[1]}`);
    await expect(page.getByTestId("tool-call")).toHaveAttribute("data-kind", "no_call");
    await expect(page.getByTestId("response-text")).toContainText("Which time zone should the window use?");
    await expect(main).toContainText("ASK");
  });
}
