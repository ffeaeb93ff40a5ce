#!/usr/bin/env node
// Part of `npm start`: migrates the database, stores the built-in probes and, on an empty
// database, loads the demo runs (unless ASSUMEPROBE_DEMO=0).
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = [join(root, "bin", "assumeprobe.js"), "setup"];
if (process.env.ASSUMEPROBE_DEMO !== "0") args.push("--demo");
const r = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", env: process.env });
process.exit(r.status ?? 1);
