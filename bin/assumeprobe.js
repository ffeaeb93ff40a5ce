#!/usr/bin/env node
// The CLI runs from dist/cli.mjs, bundled at install (`npm ci` runs `prepare`). When a source
// file is newer than the bundle (someone is editing the code), tsx compiles the sources instead.
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
process.env.ASSUMEPROBE_HOME ??= root;

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

const bundle = join(root, "dist", "cli.mjs");
const fresh =
  existsSync(bundle) &&
  !["lib", "db", join("fixtures", "probes")].some((d) => newerThan(join(root, d), statSync(bundle).mtimeMs));
let main;
if (fresh) {
  ({ main } = await import(pathToFileURL(bundle).href));
} else {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("../lib/cli/main.ts"));
}
await main(process.argv);
