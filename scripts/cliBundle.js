// Whether dist/cli.mjs (the CLI bundled by scripts/build-cli.js) is at least as new as every
// source it is built from. Plain JavaScript: bin/assumeprobe.js reads it before tsx is loaded.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function newerThan(dir, time) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (newerThan(p, time)) return true;
    } else if (
      /\.(ts|json)$/.test(entry.name) &&
      !entry.name.endsWith(".test.ts") &&
      statSync(p).mtimeMs > time
    ) {
      return true;
    }
  }
  return false;
}

/** The bundle's path under the project root `root`. */
export function cliBundlePath(root) {
  return join(root, "dist", "cli.mjs");
}

/** True when the bundle exists and no source under lib/, db/ or fixtures/probes/ is newer. */
export function cliBundleIsFresh(root) {
  const bundle = cliBundlePath(root);
  if (!existsSync(bundle)) return false;
  const time = statSync(bundle).mtimeMs;
  return !["lib", "db", join("fixtures", "probes")].some((d) => newerThan(join(root, d), time));
}
