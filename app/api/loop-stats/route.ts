import { type IntervalHistogram, monitorEventLoopDelay } from "node:perf_hooks";

/**
 * The server's event-loop delay since the last call, for `npm run bench:heavy`, `bench:review` and
 * `bench:tune`: a
 * diagnostic that exists only when ASSUMEPROBE_LOOP_STATS=1 (else 404). Measured inside the
 * server, two ways: `maxMs` and `p99Ms`, the longest and the 99th-percentile delay of a timer
 * (perf_hooks.monitorEventLoopDelay, 10 ms resolution), which on a busy shared machine also counts time the process waited for a
 * core; and `maxCpuMs`, the most CPU time the process used between two ticks of a 5 ms timer,
 * which counts only work (of every thread of the process, so it errs high). Each call answers
 * and starts a new measurement.
 */
const KEY = Symbol.for("assumeprobe.loopStats");
interface Stats {
  delay: IntervalHistogram;
  maxCpuUs: number;
}
type Holder = { [KEY]?: Stats };

function start(): Stats {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const stats: Stats = { delay, maxCpuUs: 0 };
  let last = process.cpuUsage();
  setInterval(() => {
    const now = process.cpuUsage();
    stats.maxCpuUs = Math.max(stats.maxCpuUs, now.user - last.user + now.system - last.system);
    last = now;
  }, 5).unref();
  return stats;
}

export function GET() {
  if (process.env.ASSUMEPROBE_LOOP_STATS !== "1") return new Response("not found\n", { status: 404 });
  const g = globalThis as Holder;
  g[KEY] ??= start();
  const { delay, maxCpuUs } = g[KEY];
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  const body = {
    maxMs: delay.count > 0 ? ms(delay.max) : 0,
    p99Ms: delay.count > 0 ? ms(delay.percentile(99)) : 0,
    maxCpuMs: Math.round(maxCpuUs / 10) / 100,
    rssMb: Math.round(process.memoryUsage().rss / 1e5) / 10,
  };
  delay.reset();
  g[KEY].maxCpuUs = 0;
  return Response.json(body, { headers: { "cache-control": "no-store" } });
}
