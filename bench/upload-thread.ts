/**
 * Whether an upload's ingest holds up the server's request thread (issue 11, item 3): the same
 * generated file ingested (a) as the upload route does, on a thread of its own, and (b) on the
 * calling thread, while a 5 ms timer measures how late the event loop answers. Prints each way's
 * time and the worst and 99th-percentile lateness.
 *
 *   npx tsx bench/upload-thread.ts [--lines 20000]
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { openDb } from "../db/client";
import { createIngestStore } from "../db/queries/ingestStore";
import { ingestUpload } from "../db/queries/ingestUpload";
import { syncBuiltinProbes } from "../db/queries/probes";
import { ingestSources } from "../lib/ingest/pipeline";
import { traceLines } from "./lib/generate";
import { benchDir, ensureCliBundle, fmt, load } from "./lib/util";

const { values } = parseArgs({ options: { lines: { type: "string", default: "20000" } } });
const lines = Number(values.lines);
const body = Buffer.from(`${[...traceLines(lines, { run: "upload-thread", model: "m" })].join("\n")}\n`);
const chunks = () => {
  const out: Buffer[] = [];
  for (let i = 0; i < body.length; i += 65536) out.push(body.subarray(i, i + 65536));
  return Readable.from(out);
};
const options = { probe: "schedule_window", format: "trace" as const, origin: "upload" };

ensureCliBundle();
console.log(
  `upload on its own thread or not: ${fmt(lines)} lines, ${fmt(body.length / 1e6, 1)} MB  [${load()}]`,
);
for (const mode of ["own thread (the upload route)", "the request thread"]) {
  const dir = join(benchDir(), "upload-thread");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const db = openDb(join(dir, "bench.db"));
  syncBuiltinProbes(db);
  let last = performance.now();
  const lags: number[] = [];
  const timer = setInterval(() => {
    const now = performance.now();
    lags.push(now - last - 5);
    last = now;
  }, 5);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  if (mode.startsWith("own")) await ingestUpload(db, chunks(), { file: "u.jsonl", name: "u", options });
  else
    await ingestSources([{ file: "u.jsonl", name: "u", stream: chunks() }], options, createIngestStore(db));
  clearInterval(timer);
  lags.push(performance.now() - last - 5);
  lags.sort((a, b) => a - b);
  const p99 = lags[Math.floor(lags.length * 0.99)] ?? 0;
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `  ${mode.padEnd(30)} ${fmt((performance.now() - t0) / 1000, 1)} s (CPU ${fmt((cpu.user + cpu.system) / 1e6, 1)} s); event loop late by at most ${fmt(lags.at(-1) ?? 0)} ms, p99 ${fmt(p99)} ms  [${load()}]`,
  );
  db.sqlite.close();
}
