import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const APP = join(import.meta.dirname, "..");

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsxFiles(join(dir, e.name)) : e.name.endsWith(".tsx") ? [join(dir, e.name)] : [],
  );
}

/** A stored time (`createdAt`, `finishedAt`, …) put into a page's text as it is stored. */
const RAW_TIME = [
  /(?<![=\w])\{\s*[\w.?]+At(\s*\?\?\s*[\w.?]+At)?\s*\}/,
  /\$\{\s*[\w.?]+(created|finished|saved|updated|started)At\s*\}/,
];

describe("times on pages", () => {
  it("are shown through <When> (as the fixture pages show them), never as the raw ISO value", () => {
    const raw: string[] = [];
    for (const file of tsxFiles(APP)) {
      const lines = readFileSync(file, "utf8").split("\n");
      lines.forEach((line, i) => {
        if (RAW_TIME.some((re) => re.test(line))) raw.push(`${relative(APP, file)}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(raw).toEqual([]);
  });
});
