import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";

const attr = (name: string, value: string) => `[${name}=${JSON.stringify(value)}]`;
const setPath = (name: string) => `/fixtures/${encodeURIComponent(name)}`;

/** /fixtures: every set with its latest re-run, create, import. */
export class FixtureSetsPage {
  constructor(readonly page: Page) {}

  goto() {
    return this.page.goto("/fixtures");
  }

  row(set: string): Locator {
    return this.page.getByTestId("set-row").and(this.page.locator(attr("data-set", set)));
  }

  get noSets(): Locator {
    return this.page.getByTestId("no-sets");
  }

  /** Imports a file through the page's import form; resolves with the result box. */
  async importFile(path: string, set?: string): Promise<Locator> {
    const form = this.page.getByTestId("import-form").first();
    await form.getByTestId("import-file").setInputFiles(path);
    if (set !== undefined) await form.getByTestId("import-set").fill(set);
    await form.getByTestId("import-submit").click();
    const result = this.page.getByTestId("import-result");
    await expect(result).toBeVisible();
    return result;
  }
}

/** /fixtures/SET: re-run, flips, the matrix, the fixtures with their results, history, downloads. */
export class FixtureSetPage {
  constructor(readonly page: Page) {}

  goto(set: string, query = "") {
    return this.page.goto(`${setPath(set)}${query ? `?${query}` : ""}`);
  }

  get root(): Locator {
    return this.page.getByTestId("fixture-set-page");
  }

  get rows(): Locator {
    return this.page.getByTestId("fixture-row");
  }

  row(identity: string): Locator {
    return this.rows.and(this.page.locator(attr("data-identity", identity)));
  }

  /** Presses Re-run and waits for the page of the new re-run; returns its id. */
  async rerun(): Promise<number> {
    const card = this.page.getByTestId("rerun-card");
    const before = (await card.count()) > 0 ? await card.getAttribute("data-rerun") : null;
    await this.page.getByTestId("rerun").click();
    await expect(this.page.getByTestId("rerun-done")).toBeVisible();
    if (before) await expect(card).not.toHaveAttribute("data-rerun", before);
    return Number(await card.getAttribute("data-rerun"));
  }

  get card(): Locator {
    return this.page.getByTestId("rerun-card");
  }

  get broke(): Locator {
    return this.page.getByTestId("flips-broke");
  }

  get scorerChanged(): Locator {
    return this.page.getByTestId("scorer-changed");
  }

  get history(): Locator {
    return this.page.getByTestId("rerun-row");
  }

  /**
   * Clicks one of the export links (`jsonl`, `pytest`, `pytest-reference`) and saves the browser's
   * download into `dir`; returns its suggested name and bytes.
   */
  async download(
    kind: "jsonl" | "pytest" | "pytest-reference",
    dir: string,
  ): Promise<{ name: string; bytes: Buffer }> {
    const [download] = await Promise.all([
      this.page.waitForEvent("download"),
      this.page.getByTestId(`download-${kind}`).click(),
    ]);
    const name = download.suggestedFilename();
    const path = join(dir, `${kind}-${name}`);
    await download.saveAs(path);
    return { name, bytes: readFileSync(path) };
  }
}
