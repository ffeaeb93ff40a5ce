import type { Locator, Page } from "@playwright/test";

/** The runs overview, /. */
export class RunsOverviewPage {
  constructor(readonly page: Page) {}

  goto(query = "") {
    return this.page.goto(`/${query ? `?${query}` : ""}`);
  }

  get rows(): Locator {
    return this.page.getByTestId("run-row");
  }

  row(name: string): Locator {
    return this.page.locator(`[data-testid="run-row"][data-run=${JSON.stringify(name)}]`);
  }

  get trendCharts(): Locator {
    return this.page.getByTestId("trend-chart");
  }

  async filter(model: string, sort?: string) {
    const form = this.page.getByTestId("runs-filter");
    await form.locator('select[name="model"]').selectOption(model);
    if (sort) await form.locator('select[name="sort"]').selectOption(sort);
    await form.getByRole("button", { name: "Show" }).click();
  }
}

/** One run, /runs/[name]. */
export class RunPage {
  constructor(readonly page: Page) {}

  goto(name: string, query = "") {
    return this.page.goto(`/runs/${encodeURIComponent(name)}${query ? `?${query}` : ""}`);
  }

  get rows(): Locator {
    return this.page.getByTestId("trace-row");
  }

  get count(): Locator {
    return this.page.getByTestId("match-count");
  }

  /** The number of matching traces the page reports. */
  async matchCount(): Promise<number> {
    const text = (await this.count.textContent()) ?? "";
    return Number(text.replace(/[^0-9]/g, ""));
  }

  select(name: string): Locator {
    return this.page.getByTestId(`filter-${name}`);
  }

  async search(q: string) {
    await this.page.getByTestId("filter-q").fill(q);
    await this.page.getByTestId("filter-q").press("Enter");
  }
}
