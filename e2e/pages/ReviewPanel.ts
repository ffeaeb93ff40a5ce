import { expect, type Locator, type Page } from "@playwright/test";

const attr = (name: string, value: string) => `[${name}=${JSON.stringify(value)}]`;

/** The trace page's review panel, history and conflict notice. */
export class ReviewPanel {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId("review-panel");
  }

  /** Waits until the panel's keys are attached (after hydration) and no review is in flight. */
  async ready() {
    await expect(this.root).toHaveAttribute("data-ready", "yes");
    await expect(this.root).toHaveAttribute("data-pending", "no");
  }

  field(name: string): Locator {
    return this.page.getByTestId("review-field").and(this.page.locator(attr("data-field", name)));
  }

  get focused(): Locator {
    return this.page.getByTestId("review-field").and(this.page.locator('[data-focused="yes"]'));
  }

  get status(): Locator {
    return this.page.getByTestId("review-status");
  }

  get note(): Locator {
    return this.page.getByTestId("review-note");
  }

  get nameDialog(): Locator {
    return this.page.getByTestId("reviewer-dialog");
  }

  get conflict(): Locator {
    return this.page.getByTestId("review-conflict");
  }

  get history(): Locator {
    return this.page.getByTestId("review-history");
  }

  historyOf(field: string): Locator {
    return this.page
      .getByTestId("history-field")
      .and(this.page.locator(attr("data-field", field)))
      .getByTestId("history-entry");
  }

  /** The trace id the page shows. */
  async traceId(): Promise<number> {
    return Number(await this.page.getByTestId("trace-page").getAttribute("data-trace-id"));
  }

  /** Presses a key on the page body (not in a field). */
  async press(key: string) {
    await this.page.keyboard.press(key);
  }
}
