/** The dashboard built into .next-bench and served by `next start` on loopback, for the HTTP benchmarks. */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { get as httpGet } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { fmt, load, ROOT } from "./util";

/** The benchmarks' own build folder: never anyone's .next. */
export const DIST = ".next-bench";

export function build(reuse: boolean): void {
  if (reuse && existsSync(join(ROOT, DIST, "BUILD_ID"))) {
    console.log(`build: reusing ${DIST}`);
    return;
  }
  const tsconfig = join(ROOT, "tsconfig.json");
  const before = readFileSync(tsconfig, "utf8");
  console.log(`building the dashboard into ${DIST} (next build)  [${load()}]`);
  const t0 = performance.now();
  const r = spawnSync(
    process.execPath,
    [join(ROOT, "node_modules", "next", "dist", "bin", "next"), "build"],
    {
      cwd: ROOT,
      env: { ...process.env, NEXT_DIST_DIR: DIST, NEXT_TELEMETRY_DISABLED: "1" },
      encoding: "utf8",
    },
  );
  // Next adds the new dist dir's types to tsconfig.json: put the file back as it was.
  if (readFileSync(tsconfig, "utf8") !== before) writeFileSync(tsconfig, before);
  if (r.status !== 0) throw new Error(`next build failed:\n${(r.stdout ?? "").slice(-3000)}\n${r.stderr}`);
  console.log(`  built in ${fmt((performance.now() - t0) / 1000)} s`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startServer(
  dbPath: string,
  port: number,
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      join(ROOT, "node_modules", "next", "dist", "bin", "next"),
      "start",
      "-H",
      "127.0.0.1",
      "-p",
      String(port),
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NEXT_DIST_DIR: DIST,
        NEXT_TELEMETRY_DISABLED: "1",
        ASSUMEPROBE_DB: dbPath,
        ASSUMEPROBE_HOME: ROOT,
        ASSUMEPROBE_TOKEN: "",
        NODE_ENV: "production",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let log = "";
  child.stdout?.on("data", (d) => {
    log += d;
  });
  child.stderr?.on("data", (d) => {
    log += d;
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited ${child.exitCode}:\n${log}`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/`);
      await r.text();
      if (r.ok) return child;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`next start did not answer within 60 s:\n${log}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/**
 * One request, timed until the last byte has arrived. A plain node:http GET that accepts gzip as a
 * browser does but never inflates it: the client's own work stays out of the figure (fetch's
 * decoding took tens of milliseconds of the same two cores the server runs on).
 */
export function time(url: string): Promise<{ ms: number; status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = httpGet(url, { headers: { "accept-encoding": "gzip" } }, (res) => {
      let bytes = 0;
      res.on("data", (c: Buffer) => {
        bytes += c.length;
      });
      res.on("end", () => resolve({ ms: performance.now() - t0, status: res.statusCode ?? 0, bytes }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}
