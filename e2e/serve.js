#!/usr/bin/env node
// Serves the production build for the e2e tests: a fresh database file under e2e/.tmp/, then the
// same start path as `npm start` (migrations, demo data from fixtures/, build when stale).
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const port = process.argv[2] ?? "3217";
// E2E_TMP lets two e2e runs (say, with NEXT_DIST_DIR set apart) keep separate databases.
const tmp = process.env.E2E_TMP ? resolve(root, process.env.E2E_TMP) : join(root, "e2e", ".tmp");
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });
// A 16 MB upload limit: above the 10 MB a proxy would keep of a body (the big-upload test sends
// more than that), low enough that the limit test crosses it without sending a gigabyte.
const env = {
  ...process.env,
  HOST: "127.0.0.1",
  PORT: port,
  ASSUMEPROBE_DB: join(tmp, "e2e.db"),
  ASSUMEPROBE_UPLOAD_MAX_MB: "16",
};
delete env.ASSUMEPROBE_TOKEN;
const child = spawn(process.execPath, [join(root, "scripts", "start.js")], {
  cwd: root,
  env,
  stdio: "inherit",
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
