import { expect, type Locator, type Page } from "@playwright/test";

/** The review queue, /review. */
export class ReviewQueuePage {
  constructor(readonly page: Page) {}

  async goto(query = "") {
    await this.page.goto(`/review${query ? `?${query}` : ""}`);
  }

  get root(): Locator {
    return this.page.getByTestId("review-page");
  }

  get panel(): Locator {
    return this.page.getByTestId("queue-panel");
  }

  get status(): Locator {
    return this.page.getByTestId("queue-status");
  }

  get progress(): Locator {
    return this.page.getByTestId("queue-progress");
  }

  /** Waits until the key handler is attached and no review is on its way. */
  async ready() {
    await expect(this.panel).toHaveAttribute("data-ready", "yes");
    await expect(this.panel).toHaveAttribute("data-pending", "no");
  }

  /** Waits until the queue shows this trace with this field focused. */
  async showing(traceId: number, field: string) {
    await expect(this.root).toHaveAttribute("data-trace-id", String(traceId));
    await expect(this.panel).toHaveAttribute("data-focus", field);
    await this.ready();
  }

  field(name: string): Locator {
    return this.page.locator(`[data-testid="queue-field"][data-field=${JSON.stringify(name)}]`);
  }

  get responseText(): Locator {
    return this.page.getByTestId("response-text");
  }
}
