import type { Locator, Page } from "@playwright/test";

/** "Make a probe from this" (/probes/new), reached from an ingest's rejected record. */
export class MakeProbePage {
  constructor(readonly page: Page) {}

  /** From an ingest's page: the first rejected record no probe matched. */
  async fromFirstRejected(): Promise<void> {
    await this.page.getByTestId("ingest-errors").locator("summary").first().click();
    await this.page.getByTestId("make-probe-from-rejected").first().click();
    await this.page.waitForURL(/\/probes\/new\?/);
  }

  get user(): Locator {
    return this.page.getByTestId("made-probe-user");
  }

  get tool(): Locator {
    return this.page.getByTestId("made-probe-tool");
  }

  /** Probes a field, hiding a value from the model. */
  async probe(field: string, hidden: string): Promise<void> {
    await this.page.getByTestId(`field-${field}`).check();
    await this.page.getByTestId(`hidden-${field}`).fill(hidden);
  }

  async preview(): Promise<void> {
    await this.page.getByTestId("preview-made-probe").click();
  }

  get matched(): Locator {
    return this.page.getByTestId("what-if-matched");
  }

  labels(field: string): Locator {
    return this.page.getByTestId(`what-if-labels-${field}`);
  }

  /** Saves the probe; the rejected records it matches are ingested again (lands on that ingest). */
  async save(): Promise<void> {
    await this.page.getByTestId("save-made-probe").click();
    await this.page.waitForURL(/\/ingests\/\d+/);
  }
}
