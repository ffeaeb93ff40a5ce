#!/usr/bin/env node
// The CLI runs from dist/cli.mjs, bundled at install (`npm ci` runs `prepare`). When a source
// file is newer than the bundle (someone is editing the code), tsx compiles the sources instead.
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cliBundleIsFresh, cliBundlePath } from "../scripts/cliBundle.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
process.env.ASSUMEPROBE_HOME ??= root;

const bundle = cliBundlePath(root);
let main;
if (cliBundleIsFresh(root)) {
  ({ main } = await import(pathToFileURL(bundle).href));
} else {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("../lib/cli/main.ts"));
}
await main(process.argv);
