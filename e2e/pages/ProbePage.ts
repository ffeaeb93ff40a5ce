import type { Locator, Page } from "@playwright/test";

const attr = (name: string, value: string) => `[${name}=${JSON.stringify(value)}]`;

/** The probe list, /probes. */
export class ProbeListPage {
  constructor(readonly page: Page) {}

  goto(query = "") {
    return this.page.goto(`/probes${query ? `?${query}` : ""}`);
  }

  /** A group of probes by its key (builtin, file:NAME, run:RUN, …): a collapsible section. */
  group(key: string): Locator {
    return this.page.getByTestId("probe-group").and(this.page.locator(attr("data-key", key)));
  }

  get builtin(): Locator {
    return this.group("builtin");
  }

  /** The demo's When2Call probes: all scored in one run, so grouped by it. */
  get when2call(): Locator {
    return this.group("run:when2call-calibration");
  }

  /** Opens a collapsed group. */
  async open(group: Locator) {
    if ((await group.getAttribute("open")) === null) await group.locator("summary").click();
  }

  get rows(): Locator {
    return this.page.getByTestId("probe-row");
  }

  async search(q: string) {
    await this.page.getByTestId("probe-search").fill(q);
    await this.page.getByTestId("probe-search").press("Enter");
  }
}

/** One probe, /probes/[id] (optionally ?version=N). */
export class ProbePage {
  constructor(readonly page: Page) {}

  goto(id: string, version?: number | string) {
    return this.page.goto(
      `/probes/${encodeURIComponent(id)}${version !== undefined ? `?version=${encodeURIComponent(String(version))}` : ""}`,
    );
  }

  get id(): Locator {
    return this.page.getByTestId("probe-id");
  }

  get version(): Locator {
    return this.page.getByTestId("probe-version");
  }

  get oldVersionNote(): Locator {
    return this.page.getByTestId("old-version");
  }

  param(name: string): Locator {
    return this.page
      .getByTestId("tool-schema")
      .getByTestId("param-row")
      .and(this.page.locator(attr("data-param", name)));
  }

  probedField(field: string): Locator {
    return this.page.getByTestId("probed-field").and(this.page.locator(attr("data-field", field)));
  }

  fact(name: string): Locator {
    return this.page
      .getByTestId("probe-facts")
      .getByTestId("fact-row")
      .and(this.page.locator(attr("data-fact", name)));
  }

  get bait(): Locator {
    return this.page.getByTestId("bait");
  }

  get versions(): Locator {
    return this.page.getByTestId("version-row");
  }

  versionRow(v: number): Locator {
    return this.versions.and(this.page.locator(attr("data-version", String(v))));
  }
}
