/**
 * Heavy records against the real server (issue 11, item 2): no request may block the event loop
 * for more than 100 ms, whatever one stored record holds.
 *
 * 1. Writes the heavy shapes of bench/lib/heavy.ts (500,000 keys in arguments, a 500,000-element
 *    array, a 7 MB string, 64-deep nesting, big raw / world_state / side_effect.written / text,
 *    60,000 calls, an inline probe with a 50,000-parameter tool, a huge human object, ...) into
 *    two runs, `heavy` and `heavy-b`, and ingests them with the CLI into a fresh temp database.
 * 2. Builds the dashboard into .next-bench (or reuses it with --no-build) and starts `next start`
 *    on loopback with ASSUMEPROBE_LOOP_STATS=1, which enables /api/loop-stats: the server's own
 *    longest event-loop block (perf_hooks.monitorEventLoopDelay) since the last call.
 * 3. Per shape: its trace page, the paged view of its biggest part and its record download; then
 *    the run page, the compare page and the run's export. For each request it prints latency,
 *    bytes (no compression asked), the server's longest block during the request (timer delay,
 *    and the most CPU it used between two 5 ms ticks: on a shared machine whose load is above
 *    its cores, the delay also counts waiting for a core), the slowest answer to a tiny request
 *    sent every 20 ms meanwhile, and the server's RSS.
 *
 *   npm run bench:heavy
 *   npx tsx bench/heavy.ts --no-build        # reuse .next-bench as built
 */
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { HEAVY_SHAPES, heavyLines } from "./lib/heavy";
import { build, freePort, startServer } from "./lib/server";
import { benchDir, CLI, ensureCliBundle, fmt, load, runNode } from "./lib/util";

const { values } = parseArgs({
  options: {
    "no-build": { type: "boolean", default: false },
    only: { type: "string" },
  },
});
const TARGET_MS = 100;

interface Timed {
  ms: number;
  status: number;
  bytes: number;
}

/** One GET, timed until its last byte; the body is counted, not kept. */
function get(url: string, timeoutMs = 120_000): Promise<Timed> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const req = request(url, (res) => {
      let bytes = 0;
      res.on("data", (c: Buffer) => {
        bytes += c.length;
      });
      res.on("end", () => resolve({ ms: performance.now() - t0, status: res.statusCode ?? 0, bytes }));
    });
    req.on("error", () => resolve({ ms: performance.now() - t0, status: 0, bytes: 0 }));
    req.setTimeout(timeoutMs, () => {
      req.destroy();
      resolve({ ms: timeoutMs, status: 0, bytes: 0 });
    });
    req.end();
  });
}

async function loopStats(base: string): Promise<{ maxMs: number; maxCpuMs: number; rssMb: number }> {
  const r = await fetch(`${base}/api/loop-stats`);
  if (!r.ok) throw new Error(`/api/loop-stats answered ${r.status}: is ASSUMEPROBE_LOOP_STATS set?`);
  return (await r.json()) as { maxMs: number; maxCpuMs: number; rssMb: number };
}

interface Row {
  shape: string;
  page: string;
  timed: Timed;
  blockMs: number;
  cpuMs: number;
  pingMs: number;
  rssMb: number;
}

/** A request with the server's block measured around it and a tiny request every 20 ms beside it. */
async function measure(base: string, shape: string, page: string, path: string): Promise<Row> {
  await loopStats(base);
  let done = false;
  let pingMs = 0;
  const pinger = (async () => {
    while (!done) {
      const p = await get(`${base}/traces/0/record`, 120_000);
      pingMs = Math.max(pingMs, p.ms);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const timed = await get(`${base}${path}`);
  done = true;
  await pinger;
  const s = await loopStats(base);
  return { shape, page, timed, blockMs: s.maxMs, cpuMs: s.maxCpuMs, pingMs, rssMb: s.rssMb };
}

/** Where each shape's biggest part is, for its paged view. */
const PART: Record<string, string> = {
  "keys-500k": "part=response&path=/tool_calls/0/arguments&from=250000",
  "args-string-450k": "part=response&path=/tool_calls/0/arguments&from=400000",
  "array-500k": "part=response&path=/tool_calls/0/arguments/slots&from=499800",
  "string-7mb": "part=response&path=/tool_calls/0/arguments/note",
  "medium-strings": "part=response&path=/tool_calls/0/arguments&from=1000",
  "deep-64": "part=response&path=/tool_calls/0/arguments/tree/1999",
  "big-raw": "part=record&path=/raw/extra&from=300000",
  "big-world-state": "part=record&path=/world_state&from=90000",
  "big-written": "part=record&path=/side_effect/written&from=400000",
  "big-text": "part=response&path=/text",
  "many-calls": "part=response&path=/tool_calls&from=59800",
  "huge-schema": "part=record&path=/probe/tool/parameters/properties&from=40000",
  "huge-human": "part=record&path=/human&from=400000",
  "big-params": "part=record&path=/params&from=300000",
};

async function main(): Promise<void> {
  console.log(`heavy-record benchmark  [${load()}]  node ${process.version}`);
  const dir = benchDir();
  const file = join(dir, "heavy.jsonl");
  const dbPath = join(dir, "heavy.db");
  const shapes = values.only
    ? HEAVY_SHAPES.filter((s) => values.only?.split(",").includes(s.id))
    : HEAVY_SHAPES;
  writeFileSync(file, `${[...heavyLines("heavy", shapes), ...heavyLines("heavy-b", shapes)].join("\n")}\n`);
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
  ensureCliBundle();
  const ing = await runNode([CLI, "ingest", file, "--no-progress", "--json"], { ASSUMEPROBE_DB: dbPath });
  const summary = JSON.parse(ing.stdout.trim().split("\n").pop() ?? "{}");
  console.log(
    `ingested ${summary.ingested} of ${summary.records} records (${summary.rejected} rejected) in ${fmt(ing.seconds, 1)} s, peak RSS ${fmt(ing.peakRssMb ?? 0)} MB`,
  );
  if (summary.rejected > 0) console.log(JSON.stringify(summary.errors).slice(0, 2000));
  const db = new Database(dbPath, { readonly: true });
  const idOf = (ext: string) =>
    (
      db
        .prepare(
          "SELECT t.id FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = 'heavy' AND t.ext_id = ?",
        )
        .get(ext) as { id: number } | undefined
    )?.id;
  build(values["no-build"] && existsSync(join(process.cwd(), ".next-bench", "BUILD_ID")));
  const port = await freePort();
  const server = await startServer(dbPath, port, { ASSUMEPROBE_LOOP_STATS: "1", ASSUMEPROBE_DEMO: "0" });
  const base = `http://127.0.0.1:${port}`;
  const rows: Row[] = [];
  try {
    await get(`${base}/`);
    const plain = idOf("plain-1");
    if (plain) for (let i = 0; i < 3; i++) await get(`${base}/traces/${plain}`);
    rows.push(await measure(base, "plain", "trace page", `/traces/${plain}`));
    for (const s of shapes) {
      const id = idOf(s.id);
      if (id === undefined) {
        console.log(`${s.id}: not stored (rejected at ingest)`);
        continue;
      }
      rows.push(await measure(base, s.id, "trace page", `/traces/${id}`));
      if (PART[s.id]) rows.push(await measure(base, s.id, "paged view", `/traces/${id}/json?${PART[s.id]}`));
      rows.push(await measure(base, s.id, "record download", `/traces/${id}/record`));
    }
    rows.push(await measure(base, "(all)", "run page", "/runs/heavy"));
    rows.push(await measure(base, "(all)", "run page, search", "/runs/heavy?q=schedule_window"));
    rows.push(await measure(base, "(all)", "compare page", "/compare?a=heavy&b=heavy-b"));
    rows.push(await measure(base, "(all)", "export", "/runs/heavy/export"));
    rows.push(await measure(base, "(all)", "overview", "/"));
  } finally {
    server.kill("SIGTERM");
    db.close();
  }
  const header = `${"shape".padEnd(18)} ${"page".padEnd(16)} ${"status".padStart(6)} ${"ms".padStart(8)} ${"KB".padStart(8)} ${"block ms".padStart(9)} ${"cpu ms".padStart(7)} ${"ping ms".padStart(8)} ${"RSS MB".padStart(7)}`;
  console.log(`\n${header}\n${"-".repeat(header.length)}`);
  for (const r of rows) {
    console.log(
      `${r.shape.padEnd(18)} ${r.page.padEnd(16)} ${String(r.timed.status).padStart(6)} ${fmt(r.timed.ms, 0).padStart(8)} ${fmt(r.timed.bytes / 1024, 0).padStart(8)} ${fmt(r.blockMs, 0).padStart(9)} ${fmt(r.cpuMs, 0).padStart(7)} ${fmt(r.pingMs, 0).padStart(8)} ${fmt(r.rssMb, 0).padStart(7)}`,
    );
  }
  const worst = rows.reduce((a, b) => (b.blockMs > a.blockMs ? b : a));
  const worstCpu = rows.reduce((a, b) => (b.cpuMs > a.cpuMs ? b : a));
  const bad = rows.filter((r) => r.timed.status !== 200);
  console.log(
    `\nlongest block: ${fmt(worst.blockMs, 0)} ms (${worst.shape}, ${worst.page}); target < ${TARGET_MS} ms: ${worst.blockMs < TARGET_MS ? "met" : "MISSED"}; ${rows.filter((r) => r.blockMs >= TARGET_MS).length} of ${rows.length} requests over  [${load()}]`,
  );
  console.log(
    `most CPU between two 5 ms ticks: ${fmt(worstCpu.cpuMs, 0)} ms (${worstCpu.shape}, ${worstCpu.page}); ${rows.filter((r) => r.cpuMs >= TARGET_MS).length} of ${rows.length} requests at ${TARGET_MS} ms or more`,
  );
  if (bad.length)
    console.log(`not 200: ${bad.map((r) => `${r.shape} ${r.page} (${r.timed.status})`).join("; ")}`);
}

await main();
