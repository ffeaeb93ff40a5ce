/**
 * Export benchmark (issue 11, item 10): does a big export slow everyone else down?
 *
 * 1. Generates traces in one run (bench/lib/generate.ts), enough for an export of about --mb
 *    megabytes (default 100), and ingests them with the CLI into /tmp/assumeprobe-bench/export.db
 *    (reused when it already holds the run).
 * 2. Builds the dashboard into .next-bench (shared with bench/http.ts) and starts `next start`.
 * 3. In --rounds rounds (default 3), times GET / idle (--requests per round, default 20, after
 *    warm-ups), then again while one client downloads the run's whole export
 *    (`/runs/NAME/export`) as fast as it can; prints the median and p95 of each set, the export's
 *    size and rate, and the target: p95 during the export at most twice the idle p95.
 *
 *   npm run bench:export
 *   npx tsx bench/export.ts --no-build --mb 100 --requests 20 --rounds 3
 */
import { existsSync, rmSync } from "node:fs";
import { get as httpGet } from "node:http";
import { join } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { traceLines } from "./lib/generate";
import { build, freePort, startServer, time } from "./lib/server";
import {
  benchDir,
  CLI,
  ensureCliBundle,
  fmt,
  load,
  loadIsHigh,
  median,
  percentile,
  runNode,
  writeLines,
} from "./lib/util";

const { values } = parseArgs({
  options: {
    mb: { type: "string", default: "100" },
    requests: { type: "string", default: "20" },
    rounds: { type: "string", default: "3" },
    "no-build": { type: "boolean", default: false },
  },
});
const TARGET_MB = Number(values.mb);
const REQUESTS = Number(values.requests);
const ROUNDS = Number(values.rounds);
const RUN = "bench-export";
/** Bytes of export per generated trace, measured once on this generator (re-measured below). */
const BYTES_PER_TRACE = 500;

function traceCount(dbPath: string): number {
  if (!existsSync(dbPath)) return 0;
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT trace_count FROM runs WHERE name = ?").pluck().get(RUN) as number) ?? 0;
  } catch {
    return 0;
  } finally {
    db.close();
  }
}

async function loadDatabase(dbPath: string, n: number): Promise<void> {
  if (traceCount(dbPath) === n) {
    console.log(`database: ${dbPath} already holds run ${RUN} with ${fmt(n)} traces (reused)`);
    return;
  }
  const file = join(benchDir(), `export-${n}.jsonl`);
  if (!existsSync(file))
    writeLines(file, traceLines(n, { run: RUN, model: "tern-7b-instruct", seed: "export" }));
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
  ensureCliBundle();
  console.log(`ingesting ${fmt(n)} traces into ${dbPath}  [${load()}]`);
  const res = await runNode([CLI, "ingest", file, "--no-progress", "--json"], { ASSUMEPROBE_DB: dbPath });
  if (res.code !== 0) throw new Error(`ingest exited ${res.code}: ${res.stderr.slice(0, 2000)}`);
  console.log(`  in ${fmt(res.seconds)} s`);
}

/** Downloads a URL to the end as fast as the server sends it; resolves with its size and time. */
function download(url: string): Promise<{ bytes: number; ms: number; status: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    httpGet(url, (res) => {
      let bytes = 0;
      res.on("data", (c: Buffer) => {
        bytes += c.length;
      });
      res.on("end", () => resolve({ bytes, ms: performance.now() - t0, status: res.statusCode ?? 0 }));
      res.on("error", reject);
    }).on("error", reject);
  });
}

async function timeMany(url: string, n: number, until?: () => boolean): Promise<number[]> {
  const out: number[] = [];
  while (out.length < n && (until === undefined || !until())) {
    const r = await time(url);
    if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
    out.push(r.ms);
    // A reader's pace, not a flood: one request every 50 ms at most.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return out;
}

async function main(): Promise<void> {
  console.log(`export benchmark  [${load()}]  node ${process.version}`);
  const n = Math.round((TARGET_MB * 1e6) / BYTES_PER_TRACE);
  const dbPath = join(benchDir(), "export.db");
  await loadDatabase(dbPath, n);
  build(values["no-build"] ?? false);
  const port = await freePort();
  const server = await startServer(dbPath, port);
  const base = `http://127.0.0.1:${port}`;
  const exportUrl = `${base}/runs/${encodeURIComponent(RUN)}/export`;
  try {
    // Warm up: the page, and one whole export (its code paths and the database pages).
    await timeMany(`${base}/`, 10);
    const warm = await download(exportUrl);
    if (warm.status !== 200) throw new Error(`export answered ${warm.status}`);
    console.log(
      `export alone: ${fmt(warm.bytes / 1e6, 1)} MB in ${fmt(warm.ms / 1000, 1)} s (${fmt(warm.bytes / 1e6 / (warm.ms / 1000), 1)} MB/s)  [${load()}]`,
    );
    const settleUntil = Date.now() + 60_000;
    while (loadIsHigh(1.0) && Date.now() < settleUntil) await new Promise((r) => setTimeout(r, 2000));

    // Rounds of idle requests, then requests during one whole export: a machine whose load drifts
    // (other work on the same cores) shifts both sets alike.
    const idle: number[] = [];
    const during: number[] = [];
    let exp = warm;
    for (let round = 1; round <= ROUNDS; round++) {
      idle.push(...(await timeMany(`${base}/`, REQUESTS)));
      let done = false;
      const exporting = download(exportUrl).then((r) => {
        done = true;
        return r;
      });
      during.push(...(await timeMany(`${base}/`, 100_000, () => done)));
      exp = await exporting;
      console.log(`round ${round}: export in ${fmt(exp.ms / 1000, 1)} s  [${load()}]`);
    }
    const idleP95 = percentile(idle, 95);
    const duringP95 = percentile(during, 95);
    console.log(
      `\nexport of ${fmt(n)} traces: ${fmt(exp.bytes / 1e6, 1)} MB in ${fmt(exp.ms / 1000, 1)} s (${fmt(exp.bytes / 1e6 / (exp.ms / 1000), 1)} MB/s)  [${load()}]`,
    );
    console.log(
      `GET / idle:          median ${fmt(median(idle), 1)} ms, p95 ${fmt(idleP95, 1)} ms, max ${fmt(Math.max(...idle), 1)} ms (${idle.length} requests)`,
    );
    console.log(
      `GET / during export: median ${fmt(median(during), 1)} ms, p95 ${fmt(duringP95, 1)} ms, max ${fmt(Math.max(...during), 1)} ms (${during.length} requests)`,
    );
    const ratio = duringP95 / idleP95;
    console.log(`p95 during / idle: ${fmt(ratio, 2)}x (target at most 2x: ${ratio <= 2 ? "met" : "missed"})`);
    if (loadIsHigh()) console.log("note: the 1-minute load is high; figures may be high, repeat later");
  } finally {
    server.kill("SIGTERM");
  }
}

await main();
