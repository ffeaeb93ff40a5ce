import type { Locator, Page } from "@playwright/test";

/** The upload page, /upload: a file chosen, sent with the form as it is, and the summary of its ingest. */
export class UploadPage {
  constructor(readonly page: Page) {}

  goto() {
    return this.page.goto("/upload");
  }

  /** Opens the page, chooses the file and sends it (no run, model, probe or format chosen). */
  async upload(file: { name: string; mimeType: string; buffer: Buffer }): Promise<Locator> {
    await this.goto();
    await this.page.getByTestId("file-input").setInputFiles(file);
    await this.page.getByTestId("upload-submit").click();
    return this.summary;
  }

  get summary(): Locator {
    return this.page.getByTestId("upload-summary");
  }

  /** "Read as FORMAT (evidence)". */
  get format(): Locator {
    return this.summary.getByTestId("summary-format");
  }

  get runs(): Locator {
    return this.summary.getByTestId("summary-run");
  }

  get errors(): Locator {
    return this.summary.getByTestId("upload-errors");
  }

  /** Opens the ingest's own page (its rejected records) from the summary. */
  async openIngest(): Promise<void> {
    await this.summary.getByTestId("summary-ingest").click();
    await this.page.waitForURL(/\/ingests\/\d+/);
  }
}
