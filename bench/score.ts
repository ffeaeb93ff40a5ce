/**
 * Scoring benchmark (issue 2).
 *
 * (a) `scoreTrace` alone: builds 1,000,000 pre-parsed traces (a realistic schedule_window mix:
 *     asks, drifts, omissions, copies, bait/invented/hidden injections, broken arguments,
 *     fenced and multiple calls, world states, side effects, recorded labels; normalized by the
 *     same interpretRecord the CLI uses), warms up, then times only the scoring loop on one
 *     thread and prints traces per second (wall clock, and per CPU second of this process).
 *     Target: >= 500,000 traces/s.
 * (b) the whole command: generates a JSONL file and times
 *     `node bin/assumeprobe.js score FILE > /dev/null` (bundled CLI, built-in probes), printing
 *     lines per second and the child's peak RSS.
 *
 *   npm run bench:score                      # both parts
 *   npx tsx bench/score.ts --n 1000000 --lines 200000 --repeat 3
 *   npx tsx bench/score.ts --only a          # or --only b, --only c, --only d
 * (c) the text checks of the no-call path (unparsed_call): scoreTrace on texts with no call that
 *     hold a broken fenced call, prose with braces, and 1 MB and 4 MB hostile texts (it must stay
 *     linear: the 4 MB figure per MB equals the 1 MB one).
 *
 * Generated files go to /tmp/assumeprobe-bench/. The load average is printed with every figure:
 * on a shared 2-core machine, repeat when the 1-minute load is above ~1.5.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SEED_SCORER_PY } from "../lib/fixtures/testPython";
import { Rng } from "../lib/generate/rng";
import { interpretRecord } from "../lib/ingest/traceRecord";
import { builtinProbes, DEFAULT_PROBE_ID } from "../lib/probe/builtin";
import type { Probe } from "../lib/probe/schema";
import { readArguments, scoreTrace, type TraceInput } from "../lib/probe/score";
import { makeRecord, traceLines } from "./lib/generate";
import {
  benchDir,
  CLI,
  ensureCliBundle,
  fmt,
  load,
  loadIsHigh,
  median,
  ROOT,
  runNode,
  writeLines,
} from "./lib/util";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "1000000" },
    lines: { type: "string", default: "200000" },
    repeat: { type: "string", default: "3" },
    only: { type: "string" },
  },
});
const N = Number(values.n);
const LINES = Number(values.lines);
const REPEAT = Number(values.repeat);

function buildInputs(n: number): { inputs: TraceInput[]; probes: Probe[] } {
  const probes = builtinProbes();
  const lookup = (id: string) => probes.get(id);
  const rng = new Rng("score-bench");
  const inputs: TraceInput[] = new Array(n);
  const probeOf: Probe[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const r = interpretRecord(
      makeRecord(i, rng, { run: "bench", model: "tern-7b-instruct" }),
      { probe: DEFAULT_PROBE_ID },
      lookup,
    );
    if (!r.ok) throw new Error(`generated record ${i} was rejected: ${r.reason}`);
    const t = r.record;
    inputs[i] = {
      response: t.response,
      world_state: t.world_state,
      side_effect: t.side_effect,
      recorded: t.recorded,
      model: t.model ? { pinned: t.model, payload: t.payloadModel } : undefined,
    };
    probeOf[i] = t.probe;
  }
  return { inputs, probes: probeOf };
}

function scoreAll(inputs: TraceInput[], probes: Probe[], count: number): number {
  // A checksum of the results keeps the loop from being optimized away.
  let sum = 0;
  const n = inputs.length;
  for (let i = 0; i < count; i++) {
    const k = i % n;
    const s = scoreTrace(inputs[k], probes[k]);
    sum += s.flags.length + s.gate.verdict.length + s.fields.timezone.label.length;
  }
  return sum;
}

/**
 * The part of scoring no implementation can skip, on the same traces: reading the first call's
 * arguments (JSON.parse of a string, with the same quick rejection of text that cannot be JSON),
 * a side effect's written row, and lower-casing the response text for the ask terms, plus a
 * result object per trace. Its rate is the ceiling for `scoreTrace` on this machine.
 */
function floorAll(inputs: TraceInput[], count: number): number {
  let sum = 0;
  const n = inputs.length;
  for (let i = 0; i < count; i++) {
    const t = inputs[i % n];
    const text = t.response.text ? t.response.text.toLowerCase() : "";
    const first = t.response.tool_calls[0] as { arguments?: unknown } | null | undefined;
    const read = first && typeof first === "object" ? readArguments(first.arguments) : null;
    const side = t.side_effect ? readArguments(t.side_effect.written) : null;
    const out = { fields: { timezone: text.length, severity: read?.ok }, flags: [], gate: side?.ok };
    sum += out.fields.timezone + out.flags.length;
  }
  return sum;
}

function partA(): void {
  console.log(`\n(a) scoreTrace on ${fmt(N)} pre-parsed traces`);
  const t0 = performance.now();
  const { inputs, probes } = buildInputs(N);
  console.log(`    built the inputs in ${fmt((performance.now() - t0) / 1000, 1)} s`);
  const mix = new Map<string, number>();
  for (let i = 0; i < Math.min(N, 100_000); i++) {
    const l = scoreTrace(inputs[i], probes[i]).fields.timezone.label;
    mix.set(l, (mix.get(l) ?? 0) + 1);
  }
  const total = Math.min(N, 100_000);
  console.log(
    `    timezone label mix: ${[...mix]
      .sort((a, b) => b[1] - a[1])
      .map(([l, c]) => `${l} ${fmt((100 * c) / total, 1)}%`)
      .join(", ")}`,
  );
  scoreAll(inputs, probes, Math.min(N, 300_000)); // warm-up
  const rates: number[] = [];
  for (let r = 1; r <= REPEAT; r++) {
    const before = process.cpuUsage();
    const start = performance.now();
    const sum = scoreAll(inputs, probes, N);
    const wall = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(before);
    const cpuS = (cpu.user + cpu.system) / 1e6;
    rates.push(N / wall);
    console.log(
      `    run ${r}: ${fmt(N / wall)} traces/s wall (${fmt(wall, 2)} s), ${fmt(N / cpuS)} traces/CPU-s` +
        `  [${load()}]  (checksum ${sum})`,
    );
  }
  const best = Math.max(...rates);
  console.log(
    `    => scoreTrace: median ${fmt(median(rates))} traces/s, best ${fmt(best)} traces/s ` +
      `(target >= 500,000: ${best >= 500_000 ? "met" : "MISSED"})  [${load()}]`,
  );
  const floorRates: number[] = [];
  floorAll(inputs, Math.min(N, 300_000)); // warm-up
  for (let r = 1; r <= REPEAT; r++) {
    const start = performance.now();
    floorAll(inputs, N);
    floorRates.push(N / ((performance.now() - start) / 1000));
  }
  console.log(
    `    => floor (read arguments and side effects, lower-case text, one result object; no rules): ` +
      `best ${fmt(Math.max(...floorRates))} traces/s: scoreTrace runs at ${fmt((100 * best) / Math.max(...floorRates))}% of it`,
  );
  if (loadIsHigh()) console.log("    note: the 1-minute load is high; figures may be low, repeat later");
}

async function partB(): Promise<void> {
  ensureCliBundle();
  const file = join(benchDir(), `score-${LINES}.jsonl`);
  if (!existsSync(file)) {
    const t0 = performance.now();
    const bytes = writeLines(file, traceLines(LINES, { run: "bench-score", model: "tern-7b-instruct" }));
    console.log(
      `    generated ${file}: ${fmt(LINES)} lines, ${fmt(bytes / 1e6, 1)} MB in ${fmt((performance.now() - t0) / 1000, 1)} s`,
    );
  }
  const size = statSync(file).size;
  console.log(`\n(b) node bin/assumeprobe.js score ${file} > /dev/null  (${fmt(size / 1e6, 1)} MB)`);
  // A database path that does not exist: the command reads the built-in probes and writes nothing.
  const env = { ASSUMEPROBE_DB: join(benchDir(), "score-no-db", "none.db") };
  rmSync(join(benchDir(), "score-no-db"), { recursive: true, force: true });
  const rates: number[] = [];
  for (let r = 1; r <= REPEAT; r++) {
    const res = await runNode([CLI, "score", file], env, "/dev/null");
    if (res.code !== 0) throw new Error(`score exited ${res.code}: ${res.stderr.slice(0, 2000)}`);
    rates.push(LINES / res.seconds);
    console.log(
      `    run ${r}: ${fmt(LINES / res.seconds)} lines/s (${fmt(res.seconds, 2)} s, ` +
        `${fmt(size / 1e6 / res.seconds, 1)} MB/s, peak RSS ${res.peakRssMb === null ? "?" : fmt(res.peakRssMb)} MB)  [${load()}]`,
    );
  }
  console.log(
    `    => score command: median ${fmt(median(rates))} lines/s, best ${fmt(Math.max(...rates))} lines/s  [${load()}]`,
  );
}

function partC(): void {
  console.log("\n(c) scoreTrace on texts with no call (the unparsed_call check)");
  const probe = builtinProbes().get(DEFAULT_PROBE_ID) as Probe;
  const F = "```";
  const broken = `Here is the call:\n${F}json\n{"name": "schedule_window", "arguments": {"user_id": "u_9182", "timezone": "UTC",}}\n${F}`;
  const cases: [string, string, number][] = [
    ["a broken fenced call", broken, 200_000],
    [
      "prose with braces, no name in them",
      "Fill in {region} and {zone}, then tell me which timezone.",
      200_000,
    ],
    ["a question, no braces", "Which timezone should I use for this window?", 200_000],
    ["1 MB of unclosed objects", '{"a": "'.repeat(1 << 17), 20],
    ["4 MB of unclosed objects", '{"a": "'.repeat(1 << 19), 5],
    ["1 MB of fences and names", `${F}x${F} timezone `.repeat(1 << 16), 20],
    ["4 MB of fences and names", `${F}x${F} timezone `.repeat(1 << 18), 5],
  ];
  for (const [what, text, n] of cases) {
    const input: TraceInput = { response: { text, tool_calls: [], fenced: false } };
    scoreTrace(input, probe);
    const start = performance.now();
    let flagged = 0;
    for (let i = 0; i < n; i++) flagged += scoreTrace(input, probe).flags.length;
    const us = ((performance.now() - start) * 1000) / n;
    const perMb = text.length > 1e5 ? `, ${fmt(us / 1000 / (text.length / (1 << 20)), 1)} ms per MB` : "";
    console.log(
      `    ${what}: ${fmt(us, 2)} µs per trace${perMb} (flagged ${flagged > 0 ? "yes" : "no"})  [${load()}]`,
    );
  }
}

console.log(`score benchmark  [${load()}]  node ${process.version}`);
/**
 * (d) against the first article's own scorer: `score_trace` in a Python loop over the same file
 * (bench/lib/seed_score.py: each line parsed, its response taken from `response` or the payload,
 * timezone scored), alternated with the whole `score` command; the ratio of their lines per second
 * (the command's includes starting Node and printing one JSON line per record; the loop's time is
 * the loop's alone). Target: ours >= 1.5x.
 */
async function partD(): Promise<void> {
  ensureCliBundle();
  const file = join(benchDir(), `score-${LINES}.jsonl`);
  if (!existsSync(file))
    writeLines(file, traceLines(LINES, { run: "bench-score", model: "tern-7b-instruct" }));
  console.log(`\n(d) score against the seed's score_trace in a Python loop, ${fmt(LINES)} lines`);
  const env = { ASSUMEPROBE_DB: join(benchDir(), "score-no-db", "none.db") };
  // The seed's scorer as the fixture tests keep it, importable by the loop.
  const seedDir = join(benchDir(), "seed-scorer");
  mkdirSync(seedDir, { recursive: true });
  writeFileSync(join(seedDir, "assumeprobe_seed.py"), SEED_SCORER_PY);
  const ratios: number[] = [];
  for (let r = 1; r <= REPEAT; r++) {
    const ours = await runNode([CLI, "score", file], env, "/dev/null");
    const py = spawnSync("python3", [join(ROOT, "bench", "lib", "seed_score.py"), file], {
      encoding: "utf8",
      env: { ...process.env, PYTHONPATH: seedDir },
    });
    if (ours.code !== 0 || py.status !== 0)
      throw new Error(`score exit ${ours.code}, python ${py.status}: ${py.stderr}`);
    const seed = JSON.parse(py.stdout) as { lines: number; seconds: number };
    ratios.push(seed.seconds / ours.seconds);
    console.log(
      `    run ${r}: ours ${fmt(LINES / ours.seconds)} lines/s, seed loop ${fmt(seed.lines / seed.seconds)} lines/s: ${fmt(seed.seconds / ours.seconds, 2)}x  [${load()}]`,
    );
  }
  console.log(`    => median ${fmt(median(ratios), 2)}x the seed's speed (target >= 1.5x)  [${load()}]`);
}

if (values.only === undefined || values.only === "a") partA();
if (values.only === undefined || values.only === "b") await partB();
if (values.only === undefined || values.only === "c") partC();
if (values.only === undefined || values.only === "d") await partD();
