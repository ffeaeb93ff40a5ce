import { readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "./root";

let cached: string | null = null;

/** The package's version, from its package.json (read once): part of every scorer version. */
export function packageVersion(): string {
  if (cached === null) {
    cached = "0.0.0";
    try {
      const pkg = JSON.parse(
        readFileSync(join(/*turbopackIgnore: true*/ projectRoot(), "package.json"), "utf8"),
      );
      if (typeof pkg.version === "string") cached = pkg.version;
    } catch {
      // no readable package.json: the version stays unknown
    }
  }
  return cached as string;
}
