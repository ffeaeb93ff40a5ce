#!/usr/bin/env node
// `npm start`: prepares the database (migrations, then demo data on an empty one), builds the
// dashboard when its sources are newer than the last build, and serves it on HOST:PORT
// (default 127.0.0.1:3000). A server bound beyond loopback requires ASSUMEPROBE_TOKEN.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const host = process.env.HOST || "127.0.0.1";
const port = process.env.PORT || "3000";
const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
const loopback = bare === "localhost" || bare === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
if (!loopback && !process.env.ASSUMEPROBE_TOKEN) {
  console.error(
    `assumeprobe: HOST=${host} is beyond loopback; set ASSUMEPROBE_TOKEN to the access token it must require.`,
  );
  process.exit(2);
}
// The server answers loopback names and ASSUMEPROBE_ALLOWED_HOSTS (proxy.ts); a HOST that names
// one address is a name it serves too. A wildcard (0.0.0.0, ::) names none: list the names.
if (!loopback && bare !== "0.0.0.0" && bare !== "::") {
  const allowed = process.env.ASSUMEPROBE_ALLOWED_HOSTS;
  process.env.ASSUMEPROBE_ALLOWED_HOSTS = allowed ? `${allowed},${bare}` : bare;
}
process.env.ASSUMEPROBE_HOME ??= root;
process.env.NEXT_TELEMETRY_DISABLED ??= "1";
const nextBin = join(root, "node_modules", "next", "dist", "bin", "next");

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(path)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    newest = Math.max(newest, newestMtime(join(path, name)));
  }
  return newest;
}

const buildId = join(root, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID");
const sources = [
  "app",
  "lib",
  "db",
  "public",
  "fixtures/probes",
  "package.json",
  "next.config.ts",
  "postcss.config.mjs",
  "proxy.ts",
];
const sourceTime = Math.max(...sources.map((s) => newestMtime(join(root, s))));
// The CLI bundle (bin/assumeprobe.js uses it when it is newer than the sources).
const cli = spawnSync(process.execPath, [join(root, "scripts", "build-cli.js")], {
  cwd: root,
  stdio: "inherit",
});
if (cli.status !== 0) process.exit(cli.status ?? 1);
const setup = join(root, "scripts", "setup.js");
if (existsSync(setup)) {
  const r = spawnSync(process.execPath, [setup], { cwd: root, stdio: "inherit", env: process.env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
if (!existsSync(buildId) || statSync(buildId).mtimeMs < sourceTime || process.env.ASSUMEPROBE_REBUILD) {
  console.log("assumeprobe: building the dashboard (next build)…");
  const r = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: root,
    stdio: "inherit",
    env: process.env,
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
console.log(`assumeprobe: dashboard on http://${host.includes(":") ? `[${host}]` : host}:${port}`);
const server = spawn(process.execPath, [nextBin, "start", "-H", host, "-p", port], {
  cwd: root,
  stdio: "inherit",
  env: process.env,
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.kill(sig));
server.on("exit", (code) => process.exit(code ?? 0));
