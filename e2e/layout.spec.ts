import { expect, type Page, test } from "@playwright/test";
import { openReadOnly } from "./pages/e2eDb";
import { everyPage, type PageToVisit } from "./pages/everyPage";
import { shoot } from "./pages/shots";
import { ALONE, FLIP_LINKS, smallTargets } from "./pages/targetSizes";

let pages: PageToVisit[] = [];
test.beforeAll(() => {
  const db = openReadOnly();
  try {
    pages = everyPage(db);
  } finally {
    db.close();
  }
  // Every kind of page is in the list: a run, a trace of each demo shape, compare with and
  // without runs, probes, a probe, upload, a 404.
  for (const name of ["overview", "run", "compare", "compare-form", "probes", "probe", "upload", "not-found"])
    expect(pages.map((p) => p.name)).toContain(name);
  expect(pages.filter((p) => p.name.startsWith("trace-")).length).toBeGreaterThanOrEqual(5);
});

/**
 * Identifiers: every `.ident`, and the places that show run names, probe ids and trace ids
 * whether or not they are marked.
 */
const IDENTIFIERS = [
  ".ident",
  '[data-testid="run-link"]',
  '[data-testid="run-name"]',
  '[data-testid="trace-link"]',
  '[data-testid="probe-link"]',
  '[data-testid="probe-id"]',
  '[data-testid="ext-id"]',
  '[data-testid="compare-a"]',
  '[data-testid="compare-b"]',
  'a[href^="/probes/"]',
].join(", ");

/** Places where an identifier wrapped to a new line after a character that is not / - _ : or a space. */
async function midWordBreaks(page: Page): Promise<string[]> {
  return page.locator(IDENTIFIERS).evaluateAll((els) => {
    const out: string[] = [];
    for (const el of els) {
      if (el.getClientRects().length === 0) continue;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      let prevTop: number | null = null;
      let prevChar = "";
      let space = false;
      const range = document.createRange();
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (let i = 0; i < text.length; i++) {
          // A line may always end at a space (a wrapped space has no width of its own).
          if (/\s/.test(text[i])) {
            space = true;
            continue;
          }
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = range.getClientRects()[0];
          if (!rect || rect.width === 0) continue;
          if (prevTop !== null && rect.top > prevTop + 2 && !space && !"/-_:".includes(prevChar))
            out.push(`"${el.textContent}" broke after "${prevChar}" before "${text[i]}"`);
          prevTop = rect.top;
          prevChar = text[i];
          space = false;
        }
      }
    }
    return out.slice(0, 5);
  });
}

for (const width of [390, 1440]) {
  test(`every page fits a ${width} px viewport, and identifiers wrap only between their parts`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    const failures: string[] = [];
    for (const p of pages) {
      await page.goto(p.path);
      await page.waitForLoadState("networkidle");
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      if (scrollWidth > width) failures.push(`${p.name} (${p.path}): ${scrollWidth} px wide`);
      for (const b of await midWordBreaks(page)) failures.push(`${p.name}: ${b}`);
    }
    expect(failures).toEqual([]);
  });
}

test("every control on every page is at least 24 × 24 px at 390 px (or spaced apart), review buttons 44 px tall", async ({
  page,
}) => {
  test.setTimeout(360_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const failures: string[] = [];
  const seen = new Set<string>();
  for (const p of pages) {
    await page.goto(p.path);
    await page.waitForLoadState("networkidle");
    for (const f of await smallTargets(page)) failures.push(`${p.name} (${p.path}): ${f}`);
    for (const sel of ALONE.split(", ")) if ((await page.locator(sel).count()) > 0) seen.add(sel);
  }
  // Each kind of control held to 24 px whatever its spacing was on some page, so was measured. A
  // re-run's flips exist only once a spec made one: fixtures.spec measures those where it does.
  const needed = ALONE.split(", ").filter((sel) => sel !== FLIP_LINKS);
  expect([...seen].filter((sel) => sel !== FLIP_LINKS).sort()).toEqual(needed.sort());
  // Every kind of review button was measured: the trace page's and the queue's.
  expect(pages.map((p) => p.name)).toContain("review-queue");
  expect(failures).toEqual([]);
  // For looking at: the pages a reviewer touches most (and the header on each), at both widths.
  for (const name of ["trace-heron-mini", "review-queue", "fixture-set", "lexicon", "which-run", "ingest"]) {
    const p = pages.find((x) => x.name === name);
    if (p) await shoot(page, `layout-${name}`, p.path);
  }
});

test("on a phone the queue keeps its label buttons in a bar at the bottom of the screen, the response above it", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/review");
  const bar = page.getByTestId("label-bar");
  await expect(bar).toBeVisible();
  const atBottom = async () => {
    const box = await bar.boundingBox();
    expect(box && Math.round(box.y + box.height)).toBe(844);
  };
  await atBottom();
  // Scrolled to the response, the buttons are still there, and the bar hides none of its text.
  const text = page.getByTestId("response-text").or(page.getByTestId("tool-call")).first();
  await text.scrollIntoViewIfNeeded();
  await atBottom();
  await expect(bar.getByRole("button").first()).toBeInViewport();
  // Beside a mouse the buttons sit under their field again.
  await page.setViewportSize({ width: 1440, height: 900 });
  const wide = await bar.boundingBox();
  const field = await page.locator('[data-testid="queue-field"][data-focused="yes"]').boundingBox();
  expect(wide && field && wide.y + wide.height <= field.y + field.height + 1).toBe(true);
});

test("a wide table scrolls inside its own box and says so at 390 px", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const run = pages.find((p) => p.name === "run");
  await page.goto(run?.path ?? "/");
  const box = page.getByRole("region", { name: "Traces" });
  await expect(box).toHaveAttribute("data-overflows", "yes");
  const hint = page.getByTestId("scroll-hint").first();
  await expect(hint).toBeVisible();
  await expect(hint).toContainText("scroll →");
  // Scrolled to its end, the hint points back.
  await box.evaluate((el) => {
    el.scrollLeft = el.scrollWidth;
  });
  await expect(hint).toContainText("← scroll back");
  // At 1440 px the same table fits and no hint is shown.
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(box).toHaveAttribute("data-overflows", "no");
});

test("every page has an icon, served from public/", async ({ page, request }) => {
  for (const path of ["/favicon.ico", "/icon.svg"]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    expect((await res.body()).length).toBeGreaterThan(100);
  }
  expect((await request.get("/favicon.ico")).headers()["content-type"]).toContain("icon");
  for (const path of ["/", "/probes", "/upload"]) {
    await page.goto(path);
    await expect(page.locator('link[rel="icon"][href="/favicon.ico"]')).toHaveCount(1);
    await expect(page.locator('link[rel="icon"][href="/icon.svg"]')).toHaveCount(1);
  }
});
