/**
 * The HTTP benchmarks' shared parts: a database holding one big generated run (reused when it
 * already does), the dashboard built into .next-bench, `next start` on loopback on a free port,
 * and one request timed until its last byte.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import Database from "better-sqlite3";
import { traceLines } from "./generate";
import { benchDir, CLI, ensureCliBundle, fmt, load, ROOT, runNode, writeLines } from "./util";

/** The run the page benchmarks load (`big-N.jsonl`) and share the ingested database of. */
export const BIG_RUN = "bench-1m";

/**
 * The options of a benchmark against the dashboard on the big run: its traces (`--n`), requests per
 * figure (`--requests`), the build reused (`--no-build`), a fixed port (`--port`, else a free one).
 */
export const PAGE_BENCH_OPTIONS = {
  n: { type: "string", default: "1000000" },
  requests: { type: "string", default: "20" },
  "no-build": { type: "boolean", default: false },
  port: { type: "string" },
} as const;

/** `--port`, or a free port. */
export async function benchPort(values: { port?: string }): Promise<number> {
  return values.port ? Number(values.port) : await freePort();
}

/** Traces in the run; 0 when the database predates tag signatures (its filters would be slower). */
export function traceCount(dbPath: string, run: string): number {
  if (!existsSync(dbPath)) return 0;
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const sig = db.prepare("SELECT sig FROM trace_tags LIMIT 1").pluck().get();
    if (sig === -1) return 0;
    const row = db.prepare("SELECT trace_count AS n FROM runs WHERE name = ?").get(run) as
      | { n: number }
      | undefined;
    return row?.n ?? 0;
  } catch {
    return 0;
  } finally {
    db.close();
  }
}

/**
 * A database at `dbPath` holding run `run` with `n` generated schedule_window traces (bench/lib/
 * generate.ts), ingested with the CLI; reused when it already holds them.
 */
export async function loadBigRun(dbPath: string, o: { n: number; run: string; file: string }): Promise<void> {
  if (traceCount(dbPath, o.run) === o.n) {
    console.log(`database: ${dbPath} already holds run ${o.run} with ${fmt(o.n)} traces (reused)`);
    return;
  }
  const file = join(benchDir(), o.file);
  if (!existsSync(file)) {
    const t0 = performance.now();
    const bytes = writeLines(file, traceLines(o.n, { run: o.run, model: "tern-7b-instruct", seed: "big" }));
    console.log(
      `generated ${file}: ${fmt(o.n)} lines, ${fmt(bytes / 1e6)} MB in ${fmt((performance.now() - t0) / 1000)} s`,
    );
  }
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
  ensureCliBundle();
  console.log(`ingesting ${file} into ${dbPath}  [${load()}]`);
  const res = await runNode([CLI, "ingest", file, "--no-progress", "--json"], { ASSUMEPROBE_DB: dbPath });
  if (res.code !== 0) throw new Error(`ingest exited ${res.code}: ${res.stderr.slice(0, 2000)}`);
  console.log(
    `  ${fmt(o.n)} records in ${fmt(res.seconds)} s (${fmt(o.n / res.seconds)} records/s, peak RSS ${
      res.peakRssMb === null ? "?" : fmt(res.peakRssMb)
    } MB)  [${load()}]`,
  );
  if (traceCount(dbPath, o.run) !== o.n) throw new Error("the database does not hold the run after ingest");
}

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

export interface Timed {
  ms: number;
  status: number;
  bytes: number;
  /** The body, when asked for (`keepBody`). */
  body?: string;
}

/**
 * One request, timed until the last byte has arrived. A plain node:http request that accepts gzip
 * as a browser does but never inflates it: the client's own work stays out of the figure (fetch's
 * decoding took tens of milliseconds of the same two cores the server runs on).
 */
export function time(
  url: string,
  o: { method?: string; headers?: Record<string, string>; body?: string; keepBody?: boolean } = {},
): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const headers: Record<string, string> = {
      "accept-encoding": o.keepBody ? "identity" : "gzip",
      ...o.headers,
    };
    const req = httpRequest(url, { method: o.method ?? "GET", headers }, (res) => {
      let bytes = 0;
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => {
        bytes += c.length;
        if (o.keepBody) chunks.push(c);
      });
      res.on("end", () =>
        resolve({
          ms: performance.now() - t0,
          status: res.statusCode ?? 0,
          bytes,
          body: o.keepBody ? Buffer.concat(chunks).toString("utf8") : undefined,
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(o.body);
  });
}

/** Calls a server action as the browser does: a POST to a page with its id; returns the RSC payload. */
export async function callAction(base: string, page: string, id: string, arg: unknown, cookie = "") {
  const r = await time(`${base}${page}`, {
    method: "POST",
    keepBody: true,
    headers: {
      "next-action": id,
      "content-type": "text/plain;charset=UTF-8",
      accept: "text/x-component",
      origin: base,
      ...(cookie ? { cookie } : {}),
    },
    body: JSON.stringify([arg]),
  });
  if (r.status !== 200)
    throw new Error(`action ${id} on ${page} answered ${r.status}: ${r.body?.slice(0, 500)}`);
  return r;
}

/** The action's result object, read from its RSC payload (the line holding `"ok"`). */
export function actionResult(body: string | undefined): Record<string, unknown> {
  for (const line of (body ?? "").split("\n")) {
    const i = line.indexOf(":");
    if (i < 0) continue;
    try {
      const v = JSON.parse(line.slice(i + 1));
      if (v && typeof v === "object" && "ok" in v) return v;
    } catch {
      // not a JSON row
    }
  }
  throw new Error(`no action result in ${body?.slice(0, 300)}`);
}

/**
 * The server's event-loop delay (p99 and max, ms) since the last call, from app/api/loop-stats
 * (perf_hooks.monitorEventLoopDelay inside the server; it needs ASSUMEPROBE_LOOP_STATS=1). Each
 * call starts a new measurement: call it once before the work measured.
 */
export async function loopDelay(base: string): Promise<{ p99Ms: number; maxMs: number }> {
  const r = await fetch(`${base}/api/loop-stats`);
  if (!r.ok) throw new Error(`/api/loop-stats answered ${r.status}: is ASSUMEPROBE_LOOP_STATS set?`);
  return (await r.json()) as { p99Ms: number; maxMs: number };
}
