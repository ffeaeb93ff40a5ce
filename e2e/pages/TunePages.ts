import type { Locator, Page } from "@playwright/test";

/** The what-if panel both tuning pages show. */
export class WhatIf {
  constructor(readonly page: Page) {}

  get panel(): Locator {
    return this.page.getByTestId("what-if");
  }

  /** Waits for the what-if of the current draft. */
  async ready(): Promise<void> {
    await this.page.locator('[data-testid="what-if"][data-state="ready"]').waitFor();
  }

  get fixtures(): Locator {
    return this.page.getByTestId("what-if-fixtures");
  }

  set(name: string): Locator {
    return this.page.locator(`[data-testid="what-if-set"][data-set=${JSON.stringify(name)}]`);
  }

  move(field: string, from: string, to: string): Locator {
    return this.page.locator(
      `[data-testid="what-if-move"][data-field="${field}"][data-from="${from}"][data-to="${to}"]`,
    );
  }
}

/** The shared lexicon's page, /lexicon. */
export class LexiconPage {
  readonly whatIf: WhatIf;
  constructor(readonly page: Page) {
    this.whatIf = new WhatIf(page);
  }

  goto() {
    return this.page.goto("/lexicon");
  }

  entry(field: string): Locator {
    return this.page.locator(`[data-testid="lexicon-entry"][data-field=${JSON.stringify(field)}]`);
  }

  async addField(field: string): Promise<void> {
    await this.page.getByTestId("new-field").fill(field);
    await this.page.getByTestId("add-field").click();
  }

  async addTerm(field: string, term: string): Promise<void> {
    if ((await this.entry(field).count()) === 0) await this.addField(field);
    await this.entry(field).getByTestId("add-term-input").fill(term);
    await this.entry(field).getByTestId("add-term").click();
  }

  /**
   * Saves the draft, giving the reviewer's name when the page asks for it. With `confirmGuard`, a
   * guarded move (a reviewed field moved away from its review, which other specs' reviews in the
   * same database can make) is confirmed when the page asks.
   */
  async save(reviewer: string, o: { confirmGuard?: boolean } = {}): Promise<void> {
    await this.page.getByTestId("save-draft").click();
    const dialog = this.page.locator('[data-testid="reviewer-dialog"][open]');
    const saved = this.page.getByTestId("saved");
    const guard = this.page.locator('[data-testid="break-dialog"][open]');
    await dialog.or(saved).or(guard).first().waitFor();
    if (o.confirmGuard && (await guard.isVisible())) {
      await guard.getByTestId("confirm-break").click();
      await dialog.or(saved).first().waitFor();
    }
    if (await dialog.isVisible()) {
      await dialog.getByTestId("reviewer-name-input").fill(reviewer);
      await dialog.getByTestId("reviewer-save").click();
    }
    await saved.waitFor();
  }
}
