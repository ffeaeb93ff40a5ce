#!/usr/bin/env node
// Builds dist/gate: the package's `assumeprobe/gate` and `assumeprobe/gate/node` entries (scripts/gateBuild.js).
// Run by `prepare`, so `npm ci`, `npm pack` and an install from a git URL all build it.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildGate } from "./gateBuild.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
await buildGate(root, join(root, "dist", "gate"));
