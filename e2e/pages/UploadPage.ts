import type { Locator, Page } from "@playwright/test";

/** The upload page, /upload: a file chosen, sent, and the summary of its ingest. */
export class UploadPage {
  constructor(readonly page: Page) {}

  async upload(file: { name: string; mimeType: string; buffer: Buffer }): Promise<Locator> {
    await this.page.goto("/upload");
    await this.page.getByTestId("file-input").setInputFiles(file);
    await this.page.getByTestId("upload-submit").click();
    return this.summary;
  }

  get summary(): Locator {
    return this.page.getByTestId("upload-summary");
  }

  get format(): Locator {
    return this.summary.getByTestId("summary-format");
  }

  /** Opens the ingest's own page (its rejected records) from the summary. */
  async openIngest(): Promise<void> {
    await this.summary.getByTestId("summary-ingest").click();
    await this.page.waitForURL(/\/ingests\/\d+/);
  }
}
