import { expect, type Locator, type Page } from "@playwright/test";

/** The suggestions panel of /lexicon and of a probe's tune page (app/_tuning). */
export class SuggestionsPanel {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId("suggestions");
  }

  get scopeWords(): Locator {
    return this.root.getByTestId("suggest-scope-words");
  }

  get counted(): Locator {
    return this.root.getByTestId("suggest-counted");
  }

  get notice(): Locator {
    return this.root.getByTestId("suggest-notice");
  }

  /** Opens the scope chooser and ticks one run. */
  async chooseRun(run: string) {
    const box = this.root.locator(`[data-testid="suggest-run"][data-run="${run}"]`);
    if (!(await box.isVisible())) await this.root.locator("summary").click();
    await box.check();
  }

  /** Finds suggestions and waits for them. */
  async find() {
    await this.root.getByTestId("find-suggestions").click();
    await expect(this.root).toHaveAttribute("data-state", "ready", { timeout: 90_000 });
    await expect(this.root.getByTestId("suggest-error")).toHaveCount(0);
  }

  /** The suggestion of one term (as the panel quotes it) for one target: `*` ("every field") or a field name. */
  suggestionOf(term: string, target: string): Locator {
    return this.root
      .locator('[data-testid="suggestion"]')
      .filter({ has: this.page.getByTestId("suggestion-term").getByText(`“${term}”`, { exact: true }) })
      .filter({ has: this.page.getByTestId("suggestion-field").getByText(target) });
  }

  suggestion(rank: number): Locator {
    return this.root.locator(`[data-testid="suggestion"][data-rank="${rank}"]`);
  }
}
