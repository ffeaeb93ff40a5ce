/**
 * Runner benchmark: what `assumeprobe run` costs per request when the model costs nothing.
 *
 * A chat-completions server on loopback (in this process) answers every request at once with a
 * schedule_window tool call. The bundled CLI runs `--samples N` against it at concurrency 1 and 8
 * (records to a file, scored live, no progress bar), and the figures are the run's own requests per
 * second (timed inside the run, without the CLI's start) and its wall time. Beside each, the HTTP
 * floor: the same POST through Node's bare fetch, no SDK, no record, no scoring. Last, 10,000
 * requests with the child's peak RSS.
 *
 *   npm run bench:runner
 *   npx tsx bench/runner.ts --n 2000 --rss-n 10000 --repeat 3
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { builtinProbes } from "../lib/probe/builtin";
import { buildChatRequest } from "../lib/runner/request";
import { startChatServer, toolCall } from "../lib/runner/testServer";
import { benchDir, CLI, ensureCliBundle, fmt, load, loadIsHigh, median, ROOT, runNode } from "./lib/util";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "2000" },
    "rss-n": { type: "string", default: "10000" },
    repeat: { type: "string", default: "3" },
  },
});
const N = Number(values.n);
const RSS_N = Number(values["rss-n"]);
const REPEAT = Number(values.repeat);

ensureCliBundle();
const dir = benchDir();
const server = await startChatServer(
  [],
  () => ({
    message: {
      content: null,
      tool_calls: [
        toolCall("schedule_window", { user_id: "u_9182", starts_at: "2026-09-08T09:00:00", timezone: "UTC" }),
      ],
    },
  }),
  { record: false },
);
const probe = builtinProbes().get("schedule_window");
if (!probe) throw new Error("no schedule_window");
const body = JSON.stringify(buildChatRequest(probe, { model: "bench", temperature: 0 }));

async function runOnce(samples: number, k: number) {
  const out = join(dir, `runner-${k}.jsonl`);
  rmSync(out, { force: true });
  const r = await runNode(
    [
      CLI,
      "run",
      "--base-url",
      server.baseURL,
      "--model",
      "bench",
      "--samples",
      String(samples),
      "--concurrency",
      String(k),
      "--out",
      out,
      "--json",
      "--no-progress",
    ],
    { ASSUMEPROBE_DB: join(dir, "runner-absent.db"), OPENAI_API_KEY: "" },
  );
  if (r.code !== 0) throw new Error(`run exited ${r.code}: ${r.stderr.slice(-2000)}`);
  const summary = JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "{}");
  const lines = readFileSync(out, "utf8").split("\n").filter(Boolean).length;
  if (lines !== samples || summary.answers !== samples)
    throw new Error(`expected ${samples} records, got ${lines}`);
  return { rps: summary.requests / summary.seconds, wall: r.seconds, peakRssMb: r.peakRssMb };
}

async function floorOnce(samples: number, k: number) {
  const r = await runNode([
    join(ROOT, "bench", "lib", "fetch-floor.mjs"),
    `${server.baseURL}/chat/completions`,
    String(samples),
    String(k),
    body,
  ]);
  if (r.code !== 0) throw new Error(`fetch floor exited ${r.code}: ${r.stderr.slice(-2000)}`);
  const s = JSON.parse(r.stdout.trim());
  return s.requests / s.seconds;
}

console.log(`runner benchmark: ${fmt(N)} requests per run, ${REPEAT} runs each; ${load()}`);
if (loadIsHigh()) console.log("(the machine is busy: figures will be low; repeat when the load settles)");
// Warm up the server, the bundle and the disk cache.
await runOnce(200, 1);
for (const k of [1, 8]) {
  const runs: number[] = [];
  const floors: number[] = [];
  const walls: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const r = await runOnce(N, k);
    runs.push(r.rps);
    walls.push(r.wall);
    if (r.peakRssMb !== null) rss.push(r.peakRssMb);
    floors.push(await floorOnce(N, k));
  }
  const rps = median(runs);
  const floor = median(floors);
  const perReq = 1000 / rps;
  const floorPer = 1000 / floor;
  console.log(
    `concurrency ${k}: ${fmt(rps)} requests/s (runs ${runs.map((x) => fmt(x)).join(", ")}; wall ${fmt(median(walls), 2)} s with the CLI's start), ` +
      `${fmt(perReq, 3)} ms per request; bare fetch ${fmt(floor)} requests/s (${fmt(floorPer, 3)} ms): ` +
      `the runner adds ${fmt(perReq - floorPer, 3)} ms per request; peak RSS ${rss.length ? `${fmt(median(rss))} MB` : "unknown"}; ${load()}`,
  );
}
const big = await runOnce(RSS_N, 8);
console.log(
  `${fmt(RSS_N)} requests at concurrency 8: ${fmt(big.rps)} requests/s, peak RSS ${big.peakRssMb === null ? "unknown" : `${fmt(big.peakRssMb)} MB`}; ${load()}`,
);
await server.close();
