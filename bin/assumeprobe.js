#!/usr/bin/env node
// Node 20 cannot run TypeScript directly: tsx compiles the CLI's modules on the fly.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
process.env.ASSUMEPROBE_HOME ??= root;
register();
const { main } = await import("../lib/cli/main.ts");
await main(process.argv);
