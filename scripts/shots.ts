// Screenshots of every page at 1440 and 390 px, from a running server:
//   npx tsx scripts/shots.ts --base http://127.0.0.1:3000 [--db data/assumeprobe.db] [NAME...]
// NAME picks pages by the names in e2e/pages/everyPage.ts (a prefix matches: `trace`); files go
// to shots/NAME-WIDTH.png.
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import Database from "better-sqlite3";
import { everyPage } from "../e2e/pages/everyPage";
import { shoot } from "../e2e/pages/shots";

const { values, positionals } = parseArgs({
  options: {
    base: { type: "string", default: "http://127.0.0.1:3000" },
    db: { type: "string", default: process.env.ASSUMEPROBE_DB ?? "data/assumeprobe.db" },
  },
  allowPositionals: true,
});
const db = new Database(values.db as string, { readonly: true, fileMustExist: true });
const pages = everyPage(db).filter(
  (p) => positionals.length === 0 || positionals.some((n) => p.name === n || p.name.startsWith(n)),
);
db.close();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
});
const page = await browser.newPage({ baseURL: values.base });
for (const p of pages) {
  const files = await shoot(page, p.name, p.path);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  console.log(`${p.name.padEnd(22)} ${p.path}  (scrollWidth at 390: ${width})  ${files.length} files`);
}
await browser.close();
