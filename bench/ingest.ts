/**
 * Ingest benchmark (issue 3).
 *
 * Generates a 200,000-line trace file (schedule_window, one run, a realistic mix of shapes and
 * labels; see bench/lib/generate.ts) and, in the same run, measures records per second and peak
 * RSS for
 *   (a) our ingest: `node bin/assumeprobe.js ingest FILE --no-progress --json` into a fresh
 *       temporary database (the bundled CLI, as installed), and
 *   (b) the bare baseline issue 3 defines (bench/lib/baseline-ingest.mjs: read lines,
 *       JSON.parse, one prepared insert of the raw line and four columns per line into a table
 *       with no index but the primary key, 5,000 lines per transaction, WAL, synchronous NORMAL),
 * then prints both rates and the ratio. Target: ours >= 0.5x the baseline (goal 0.7x).
 * Last, the write floor (bench/lib/ingest-floor.ts): the same file through our store on one
 * thread with only its database writes timed, against the time per record 0.5x the baseline
 * allows, and each table (trace row, tag rows, search row) replayed alone. `--no-floor` skips it.
 * Peak RSS is the child's own, from /usr/bin/time -v (or a preload printing resourceUsage().maxRSS).
 *
 *   npm run bench:ingest                          # 200,000 lines, ours then baseline, twice
 *   npx tsx bench/ingest.ts --lines 200000 --repeat 2
 *   npx tsx bench/ingest.ts --gb 1                # a ~1 GB file: our peak RSS (target < 300 MB)
 *   npx tsx bench/ingest.ts --gb 1 --otlp         # and an OTLP JSON Lines file of that size: MB/s
 *                                                 # and records/s beside the JSONL's (target: within 1.5x)
 *   npm run bench:ingest -- --eval 500            # a ~500 MB Inspect .eval log (zip): MB/s, records/s
 *                                                 # and peak RSS (target < 300 MB)
 *
 * Files and databases go to /tmp/assumeprobe-bench/ (the generated file is reused when present).
 * The load average is printed with every figure: repeat when the 1-minute load is above ~1.5.
 */
import { existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { traceLines } from "./lib/generate";
import { measureWriteFloor } from "./lib/ingest-floor";
import { writeEvalLog } from "./lib/inspectEval";
import { otlpLinesUntil } from "./lib/otlpLines";
import { benchDir, CLI, ensureCliBundle, fmt, load, loadIsHigh, ROOT, runNode, writeLines } from "./lib/util";

const { values } = parseArgs({
  options: {
    lines: { type: "string", default: "200000" },
    repeat: { type: "string", default: "2" },
    gb: { type: "string" },
    otlp: { type: "boolean", default: false },
    eval: { type: "string" },
    "no-baseline": { type: "boolean", default: false },
    "no-floor": { type: "boolean", default: false },
  },
});

interface Summary {
  records: number;
  ingested: number;
  duplicates: number;
  rejected: number;
}

function generate(file: string, lines: number): void {
  if (existsSync(file)) return;
  const t0 = performance.now();
  const bytes = writeLines(file, traceLines(lines, { run: "bench-ingest", model: "tern-7b-instruct" }));
  console.log(
    `generated ${file}: ${fmt(lines)} lines, ${fmt(bytes / 1e6, 1)} MB in ${fmt((performance.now() - t0) / 1000, 1)} s`,
  );
}

/** Lines until the file reaches `bytes`. */
function* untilSize(bytes: number): Generator<string> {
  let size = 0;
  for (const l of traceLines(Number.MAX_SAFE_INTEGER, {
    run: "bench-ingest-gb",
    model: "tern-7b-instruct",
  })) {
    yield l;
    size += Buffer.byteLength(l) + 1;
    if (size >= bytes) return;
  }
}

function freshDb(name: string): string {
  const dir = join(benchDir(), name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return join(dir, "bench.db");
}

async function ours(file: string, lines: number | null) {
  const db = freshDb("ingest-ours");
  const res = await runNode([CLI, "ingest", file, "--no-progress", "--json"], { ASSUMEPROBE_DB: db });
  const last = res.stdout.trim().split("\n").pop() ?? "";
  let summary: Summary;
  try {
    summary = JSON.parse(last);
  } catch {
    throw new Error(`ingest printed no JSON summary (exit ${res.code}): ${res.stderr.slice(0, 2000)}`);
  }
  if (res.code !== 0 || summary.rejected > 0 || (lines !== null && summary.records !== lines)) {
    throw new Error(`ingest exit ${res.code}, summary ${last}\n${res.stderr.slice(0, 2000)}`);
  }
  const dbMb = (statSync(db).size + (existsSync(`${db}-wal`) ? statSync(`${db}-wal`).size : 0)) / 1e6;
  return { rate: summary.records / res.seconds, seconds: res.seconds, rss: res.peakRssMb, summary, dbMb };
}

async function baseline(file: string, lines: number) {
  const db = freshDb("ingest-baseline");
  const res = await runNode([join(ROOT, "bench", "lib", "baseline-ingest.mjs"), file, db]);
  if (res.code !== 0) throw new Error(`baseline exit ${res.code}: ${res.stderr.slice(0, 2000)}`);
  const out = JSON.parse(res.stdout.trim().split("\n").pop() ?? "{}") as { lines: number };
  if (out.lines !== lines) throw new Error(`baseline read ${out.lines} lines, expected ${lines}`);
  return { rate: out.lines / res.seconds, seconds: res.seconds, rss: res.peakRssMb };
}

const mb = (x: number | null) => (x === null ? "?" : `${fmt(x)} MB`);

async function main(): Promise<void> {
  ensureCliBundle();
  console.log(`ingest benchmark  [${load()}]  node ${process.version}`);
  if (values.eval) {
    await inspectEval(Number(values.eval));
    return;
  }
  if (values.gb) {
    const gb = Number(values.gb);
    const file = join(benchDir(), `ingest-${gb}gb.jsonl`);
    if (!existsSync(file)) {
      const t0 = performance.now();
      const bytes = writeLines(file, untilSize(gb * 1e9));
      console.log(
        `generated ${file}: ${fmt(bytes / 1e9, 2)} GB in ${fmt((performance.now() - t0) / 1000, 0)} s`,
      );
    }
    const jsonl = await bigFile(file);
    if (!values.otlp) return;
    const otlp = join(benchDir(), `ingest-${gb}gb.otlp.jsonl`);
    if (!existsSync(otlp)) {
      const t0 = performance.now();
      const bytes = writeLines(otlp, otlpLinesUntil(gb * 1e9));
      console.log(
        `generated ${otlp}: ${fmt(bytes / 1e9, 2)} GB in ${fmt((performance.now() - t0) / 1000, 0)} s`,
      );
    }
    const o = await bigFile(otlp);
    const ratio = jsonl.mbps / o.mbps;
    console.log(
      `  => OTLP ${fmt(o.mbps, 1)} MB/s, JSONL ${fmt(jsonl.mbps, 1)} MB/s: the JSONL path is ${fmt(ratio, 2)}x as fast ` +
        `(target: within 1.5x: ${ratio <= 1.5 ? "met" : "MISSED"})  [${load()}]`,
    );
    return;
  }
  const lines = Number(values.lines);
  const file = join(benchDir(), `ingest-${lines}.jsonl`);
  generate(file, lines);
  const size = statSync(file).size;
  console.log(`file: ${file}, ${fmt(lines)} lines, ${fmt(size / 1e6, 1)} MB`);
  const repeat = Number(values.repeat);
  const baselineRates: number[] = [];
  for (let i = 1; i <= repeat; i++) {
    console.log(`\nround ${i}`);
    const a = await ours(file, lines);
    console.log(
      `  ours:     ${fmt(a.rate).padStart(9)} records/s (${fmt(a.seconds, 2)} s), peak RSS ${mb(a.rss)}, ` +
        `database ${fmt(a.dbMb)} MB  [${load()}]`,
    );
    if (values["no-baseline"]) continue;
    const b = await baseline(file, lines);
    console.log(
      `  baseline: ${fmt(b.rate).padStart(9)} records/s (${fmt(b.seconds, 2)} s), peak RSS ${mb(b.rss)}  [${load()}]`,
    );
    baselineRates.push(b.rate);
    const ratio = a.rate / b.rate;
    console.log(
      `  => ratio ${fmt(ratio, 2)}x the baseline (target >= 0.5x: ${ratio >= 0.5 ? "met" : "MISSED"}; ` +
        `goal 0.7x: ${ratio >= 0.7 ? "met" : "not yet"})  [${load()}]`,
    );
  }
  if (!values["no-floor"]) await floor(file, baselineRates);
  if (loadIsHigh()) console.log("note: the 1-minute load is high; figures may be low, repeat later");
}

/** Ingests one big file (JSONL or OTLP): records/s, MB/s, peak RSS against the 300 MB target. */
async function bigFile(file: string): Promise<{ mbps: number }> {
  const size = statSync(file).size;
  console.log(`\nours: ingest ${file} (${fmt(size / 1e9, 2)} GB)  [${load()}]`);
  const r = await ours(file, null);
  const mbps = size / 1e6 / r.seconds;
  console.log(
    `  ${fmt(r.summary.records)} records in ${fmt(r.seconds, 1)} s: ${fmt(r.rate)} records/s, ` +
      `${fmt(mbps, 1)} MB/s; peak RSS ${mb(r.rss)} (target < 300 MB: ` +
      `${r.rss !== null && r.rss < 300 ? "met" : "MISSED"}); database ${fmt(r.dbMb)} MB  [${load()}]`,
  );
  return { mbps };
}

/** An Inspect `.eval` log of about `mb` MB (zip bytes), generated once, ingested with no flags. */
async function inspectEval(mb: number): Promise<void> {
  const file = join(benchDir(), `ingest-inspect-${mb}mb.eval`);
  if (!existsSync(file)) {
    const t0 = performance.now();
    const g = await writeEvalLog(file, mb * 1e6);
    console.log(
      `generated ${file}: ${fmt(statSync(file).size / 1e6, 1)} MB zip, ${fmt(g.samples)} samples, ` +
        `${fmt(g.generations)} generations, ${fmt(g.rawBytes / 1e6)} MB of sample JSON, in ` +
        `${fmt((performance.now() - t0) / 1000, 0)} s`,
    );
  }
  await bigFile(file);
}

/** The write floor (bench/lib/ingest-floor.ts) against the baseline's rate. */
async function floor(file: string, baselineRates: number[]): Promise<void> {
  console.log(
    `\nwrite floor: the same file through our store on one thread, timing only its writes  [${load()}]`,
  );
  const f = await measureWriteFloor(file, join(benchDir(), "ingest-floor", "bench.db"));
  const usPer = (f.writeSeconds * 1e6) / f.records;
  console.log(
    `  writes ${fmt(f.writeSeconds, 1)} s of a ${fmt(f.totalSeconds, 1)} s single-threaded ingest: ` +
      `${fmt(usPer, 1)} us per record, ${fmt(f.records / f.writeSeconds)} records/s  [${load()}]`,
  );
  if (baselineRates.length > 0) {
    const base = baselineRates.reduce((a, b) => a + b, 0) / baselineRates.length;
    console.log(
      `  the baseline's mean rate, ${fmt(base)} records/s, allows ${fmt(1e6 / (0.5 * base), 1)} us per record at 0.5x ` +
        `(${fmt(1e6 / (0.7 * base), 1)} us at 0.7x) for reading, scoring and writing together; ` +
        `the writes alone are ${fmt(f.records / f.writeSeconds / base, 2)}x the baseline's rate`,
    );
  }
  console.log(`  each table replayed alone (first ${fmt(f.sampled)} records, fresh database):`);
  for (const p of f.parts) console.log(`    ${fmt(p.usPerRecord, 1).padStart(6)} us  ${p.name}`);
}

await main();
