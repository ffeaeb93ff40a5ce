/**
 * Server benchmark at a million traces (issues 4 and 5).
 *
 * 1. Generates 1,000,000 varied schedule_window traces in one run (labels, flags, gate verdicts,
 *    texts from a Zipf vocabulary; bench/lib/generate.ts) and ingests them with the CLI into
 *    /tmp/assumeprobe-bench/big.db (reused when it already holds the run with 1,000,000 traces
 *    and its tag rows carry signatures).
 * 2. Builds the dashboard into .next-bench (NEXT_DIST_DIR, so it never touches anyone's .next;
 *    tsconfig.json, which Next rewrites for a new dist dir, is restored afterwards) and starts
 *    `next start -H 127.0.0.1` on a free port with ASSUMEPROBE_DB pointing at that database.
 * 3. Times each request over HTTP (until the whole body has arrived): 2 warm-ups, then 20
 *    requests, and prints median and p95 per case: the overview `/`, the run page unfiltered,
 *    filtered by label, by flag plus label, searched (`q=`, common and rare words), deeper pages
 *    through the `after=` cursor, and the trace page `/traces/<id>` (20 different ids, without and
 *    with a filter in the URL). Targets: p95 < 100 ms for run and trace pages, < 200 ms for `/`.
 *
 *   npm run bench:http
 *   npx tsx bench/http.ts --no-build     # reuse .next-bench as built (after a first run)
 *   npx tsx bench/http.ts --n 1000000 --requests 20
 *
 * The load average is printed with every figure: repeat when the 1-minute load is above ~1.5.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { vocabWord } from "./lib/generate";
import { BIG_RUN, benchPort, build, loadBigRun, PAGE_BENCH_OPTIONS, startServer, time } from "./lib/server";
import { benchDir, fmt, load, loadIsHigh, median, percentile } from "./lib/util";

const { values } = parseArgs({ options: PAGE_BENCH_OPTIONS });
const N = Number(values.n);
const REQUESTS = Number(values.requests);
const RUN = BIG_RUN;

const loadDatabase = (dbPath: string) => loadBigRun(dbPath, { n: N, run: RUN, file: `big-${N}.jsonl` });

interface Case {
  name: string;
  /** One URL per request (warm-ups first), or one URL for all. */
  urls: string[];
  target: number;
}

/** Ids to page after and to open, spread over the run (and over a filter's matches). */
function sampleIds(dbPath: string): { all: number[]; inject: number[]; ask: number[]; rareWord: string } {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const runId = (db.prepare("SELECT id FROM runs WHERE name = ?").get(RUN) as { id: number }).id;
    const { lo, hi } = db
      .prepare("SELECT min(id) AS lo, max(id) AS hi FROM traces WHERE run_id = ?")
      .get(runId) as { lo: number; hi: number };
    const spread = (k: number) =>
      Array.from({ length: k }, (_, i) => Math.floor(lo + ((hi - lo) * (i + 0.5)) / k));
    const tagged = (name: string, k: number) => {
      const tagId = (db.prepare("SELECT id FROM tag_names WHERE name = ?").get(name) as { id: number }).id;
      const next = db.prepare(
        "SELECT trace_id FROM trace_tags WHERE run_id = ? AND tag_id = ? AND trace_id >= ? ORDER BY trace_id LIMIT 1",
      );
      return spread(k).map((at) => (next.get(runId, tagId, at) as { trace_id: number }).trace_id);
    };
    return {
      all: spread(30),
      inject: tagged("l:timezone=INJECT", 30),
      ask: tagged("l:timezone=ASK", 30),
      rareWord: vocabWord(3000),
    };
  } finally {
    db.close();
  }
}

async function main(): Promise<void> {
  console.log(`http benchmark  [${load()}]  node ${process.version}`);
  const dbPath = join(benchDir(), "big.db");
  await loadDatabase(dbPath);
  console.log(`database: ${fmt(statSync(dbPath).size / 1e6)} MB`);
  build(values["no-build"] ?? false);
  const port = await benchPort(values);
  const server = await startServer(dbPath, port);
  const base = `http://127.0.0.1:${port}`;
  try {
    const ids = sampleIds(dbPath);
    const run = `${base}/runs/${encodeURIComponent(RUN)}`;
    const same = (url: string) => Array.from({ length: REQUESTS + 2 }, () => url);
    const each = (list: number[], f: (id: number) => string) => list.slice(0, REQUESTS + 2).map(f);
    const cases: Case[] = [
      { name: "overview /", urls: same(`${base}/`), target: 200 },
      { name: "run page, unfiltered", urls: same(run), target: 100 },
      { name: "run, label=INJECT (timezone)", urls: same(`${run}?field=timezone&label=INJECT`), target: 100 },
      { name: "run, label=COPY (rare)", urls: same(`${run}?field=timezone&label=COPY`), target: 100 },
      { name: "run, any field label=ERROR", urls: same(`${run}?field=*&label=ERROR`), target: 100 },
      {
        name: "run, flag=ask_and_call + label=INJECT",
        urls: same(`${run}?field=timezone&label=INJECT&flag=ask_and_call`),
        target: 100,
      },
      {
        name: "run, flag=recorded_mismatch + label=OMIT",
        urls: same(`${run}?field=timezone&label=OMIT&flag=recorded_mismatch`),
        target: 100,
      },
      {
        name: "run, flag=wrong_tool + label=ASK (empty)",
        urls: same(`${run}?field=timezone&label=ASK&flag=wrong_tool`),
        target: 100,
      },
      {
        name: "run, gate=block + reason=bait",
        urls: same(`${run}?field=timezone&gate=block&reason=bait`),
        target: 100,
      },
      { name: "run, q=timezone (common)", urls: same(`${run}?q=timezone`), target: 100 },
      { name: "run, q=tokyo", urls: same(`${run}?q=tokyo`), target: 100 },
      { name: `run, q=${ids.rareWord} (rare)`, urls: same(`${run}?q=${ids.rareWord}`), target: 100 },
      {
        name: "run, q=timezone + label=ASK",
        urls: same(`${run}?field=timezone&label=ASK&q=timezone`),
        target: 100,
      },
      { name: "run, after= (20 depths)", urls: each(ids.all, (id) => `${run}?after=${id}`), target: 100 },
      {
        name: "run, label=INJECT after= (20 depths)",
        urls: each(ids.inject, (id) => `${run}?field=timezone&label=INJECT&after=${id}`),
        target: 100,
      },
      {
        name: "run, q=timezone after= (20 depths)",
        urls: each(ids.all, (id) => `${run}?q=timezone&after=${id}`),
        target: 100,
      },
      { name: "run, before= (20 depths)", urls: each(ids.all, (id) => `${run}?before=${id}`), target: 100 },
      { name: "trace page (20 ids)", urls: each(ids.all, (id) => `${base}/traces/${id}`), target: 100 },
      {
        name: "trace page, label=INJECT in URL",
        urls: each(ids.inject, (id) => `${base}/traces/${id}?field=timezone&label=INJECT`),
        target: 100,
      },
      {
        name: "trace page, flag+label in URL",
        urls: each(ids.inject, (id) => `${base}/traces/${id}?field=timezone&label=INJECT&flag=ask_and_call`),
        target: 100,
      },
      {
        name: "trace page, q=timezone in URL",
        urls: each(ids.ask, (id) => `${base}/traces/${id}?q=timezone`),
        target: 100,
      },
    ];
    // A dashboard server runs for days: measure it warm. Each case's two warm-up URLs, five rounds
    // (the measured URLs, other ids and depths, stay unseen), then wait for the build's load to pass.
    for (let round = 0; round < 5; round++) {
      for (const c of cases) for (const u of c.urls.slice(0, 2)) await time(u);
    }
    const settleUntil = Date.now() + 90_000;
    while (loadIsHigh(1.0) && Date.now() < settleUntil) await new Promise((r) => setTimeout(r, 2000));
    console.log(
      `\nserver on ${base}, warmed up; ${REQUESTS} requests per case after 2 warm-ups  [${load()}]\n`,
    );
    const header = `${"case".padEnd(42)} ${"median".padStart(8)} ${"p95".padStart(8)} ${"max".padStart(8)} ${"KB gz".padStart(6)}  target  load`;
    console.log(header);
    console.log("-".repeat(header.length + 8));
    const missed: string[] = [];
    for (const c of cases) {
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < c.urls.length; i++) {
        const r = await time(c.urls[i]);
        if (r.status !== 200) throw new Error(`${c.urls[i]} answered ${r.status}`);
        if (i >= 2) {
          times.push(r.ms);
          bytes = r.bytes;
        }
      }
      const p95 = percentile(times, 95);
      const ok = p95 < c.target;
      if (!ok) missed.push(c.name);
      console.log(
        `${c.name.padEnd(42)} ${fmt(median(times), 1).padStart(8)} ${fmt(p95, 1).padStart(8)} ${fmt(
          Math.max(...times),
          1,
        ).padStart(
          8,
        )} ${fmt(bytes / 1024).padStart(6)}  <${c.target} ${ok ? "ok " : "MISS"}  ${load().slice(5)}`,
      );
    }
    console.log(
      `\n${missed.length === 0 ? "every case met its target" : `missed: ${missed.join("; ")}`}  [${load()}]`,
    );
    if (loadIsHigh()) console.log("note: the 1-minute load is high; figures may be high, repeat later");
  } finally {
    server.kill("SIGTERM");
  }
}

await main();
