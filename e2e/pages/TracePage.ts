import type { Locator, Page } from "@playwright/test";

const attr = (name: string, value: string) => `[${name}=${JSON.stringify(value)}]`;

/** The trace page, /traces/[id]: the evidence behind every label. */
export class TracePage {
  constructor(readonly page: Page) {}

  goto(id: number | string, query = "") {
    return this.page.goto(`/traces/${id}${query ? `?${query}` : ""}`);
  }

  get root(): Locator {
    return this.page.getByTestId("trace-page");
  }

  /** The trace id the page shows. */
  async traceId(): Promise<number> {
    return Number(await this.root.getAttribute("data-trace-id"));
  }

  // --- Labels -----------------------------------------------------------------------

  fieldRow(field: string): Locator {
    return this.page.getByTestId("field-row").and(this.page.locator(attr("data-field", field)));
  }

  ourLabel(field: string): Locator {
    return this.fieldRow(field).getByTestId("our-label");
  }

  // --- Tool call --------------------------------------------------------------------

  get toolCall(): Locator {
    return this.page.getByTestId("tool-call");
  }

  argRow(key: string): Locator {
    return this.page
      .getByTestId("argument-table")
      .getByTestId("arg-row")
      .and(this.page.locator(attr("data-key", key)));
  }

  /** The marks of one argument, main one first, as their data-mark names. */
  async marksOf(key: string): Promise<string[]> {
    const marks = this.argRow(key).getByTestId("mark");
    const n = await marks.count();
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push((await marks.nth(i).getAttribute("data-mark")) ?? "");
    return out;
  }

  omittedRow(field: string): Locator {
    return this.page.getByTestId("omitted-row").and(this.page.locator(attr("data-key", field)));
  }

  get omittedFields(): Locator {
    return this.page.getByTestId("omitted-fields");
  }

  get legend(): Locator {
    return this.page.getByTestId("mark-legend");
  }

  // --- Response text ----------------------------------------------------------------

  get responseText(): Locator {
    return this.page.getByTestId("response-text");
  }

  /** The <mark>ed ask terms in the response text. */
  get askTermMarks(): Locator {
    return this.responseText.locator("mark");
  }

  askTermsFor(field: string): Locator {
    return this.page.getByTestId("ask-terms-field").and(this.page.locator(attr("data-field", field)));
  }

  // --- Gate, worlds, schema ---------------------------------------------------------

  get gate(): Locator {
    return this.page.getByTestId("gate");
  }

  get nextStep(): Locator {
    return this.page.getByTestId("next-step-text");
  }

  get visibleWorld(): Locator {
    return this.page.getByTestId("visible-world");
  }

  get hiddenWorld(): Locator {
    return this.page.getByTestId("hidden-world");
  }

  param(name: string): Locator {
    return this.page
      .getByTestId("tool-schema")
      .getByTestId("param-row")
      .and(this.page.locator(attr("data-param", name)));
  }

  // --- Navigation -------------------------------------------------------------------

  get prevLink(): Locator {
    return this.page.getByTestId("prev-link");
  }

  get nextLink(): Locator {
    return this.page.getByTestId("next-link");
  }

  get backLink(): Locator {
    return this.page.getByTestId("back-link");
  }

  get keysDialog(): Locator {
    return this.page.getByTestId("keys-dialog");
  }

  /** Presses a key on the page body (not in a field). */
  async press(key: string) {
    await this.page.locator("body").press(key);
  }

  // --- Raw data ---------------------------------------------------------------------

  async openDetails(testId: string): Promise<Locator> {
    const d = this.page.getByTestId(testId);
    await d.locator("summary").click();
    return d;
  }
}
