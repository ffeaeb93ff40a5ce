import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, type Page } from "@playwright/test";

/** The widths every changed page is looked at: a desktop and a 390 px phone. */
export const SHOT_WIDTHS = [1440, 390] as const;

/** Where screenshots go (git-ignored). */
export const SHOTS_DIR = join(process.cwd(), "shots");

/**
 * Full-page screenshots of the page at each width, as `shots/NAME-WIDTH.png`. The page is
 * reloaded at each width so layout decided on the server or at hydration matches a real visit.
 * Returns the files written.
 */
export async function shoot(
  page: Page,
  name: string,
  path?: string,
  widths: readonly number[] = SHOT_WIDTHS,
): Promise<string[]> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  const files: string[] = [];
  for (const width of widths) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    if (path) await page.goto(path, { waitUntil: "networkidle" });
    else await page.reload({ waitUntil: "networkidle" });
    const file = join(SHOTS_DIR, `${name}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    files.push(file);
    // A tall page shrinks past reading when viewed whole: also keep it in screen-sized parts.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    const part = width < 600 ? 1600 : 1800;
    for (let i = 0; height > part * 1.25 && i * part < height && i < 8; i++) {
      const f = join(SHOTS_DIR, `${name}-${width}-part${i + 1}.png`);
      await page.screenshot({
        path: f,
        fullPage: true,
        clip: { x: 0, y: i * part, width, height: Math.min(part, height - i * part) },
      });
      files.push(f);
    }
  }
  return files;
}

/**
 * Screenshots of the page as it is now (an open dialog, a result shown) at each width, without a
 * reload, as `shots/NAME-WIDTH.png` (the whole page, or with `screen` what the screen shows: a
 * dialog); the viewport is put back after. Returns the page's scrollWidth at each width (wider
 * than the viewport: something overflows).
 */
export async function shootAsIs(
  page: Page,
  name: string,
  { screen = false, widths = SHOT_WIDTHS }: { screen?: boolean; widths?: readonly number[] } = {},
): Promise<Map<number, number>> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  const size = page.viewportSize() ?? { width: 1440, height: 900 };
  const scroll = new Map<number, number>();
  for (const width of widths) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    await page.screenshot({ path: join(SHOTS_DIR, `${name}-${width}.png`), fullPage: !screen });
    scroll.set(width, await page.evaluate(() => document.documentElement.scrollWidth));
  }
  await page.setViewportSize(size);
  return scroll;
}

/** `shootAsIs`, and nothing on the page is wider than the phone's 390 px screen. */
export async function shootFitting(
  page: Page,
  name: string,
  options: { screen?: boolean } = {},
): Promise<void> {
  const widths = await shootAsIs(page, name, options);
  expect(widths.get(390), `${name} overflows at 390 px`).toBeLessThanOrEqual(390);
}
