import type { Locator, Page } from "@playwright/test";

/** The upload page, /upload: a file dropped in, and the ingest's summary. */
export class UploadPage {
  constructor(readonly page: Page) {}

  goto() {
    return this.page.goto("/upload");
  }

  /** Chooses a file and sends it with the form as it is (no run, model, probe or format chosen). */
  async upload(name: string, buffer: Buffer, mimeType = "application/json") {
    await this.page.getByTestId("file-input").setInputFiles({ name, mimeType, buffer });
    await this.page.getByTestId("upload-submit").click();
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
}
