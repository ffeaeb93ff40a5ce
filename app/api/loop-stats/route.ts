import { type IntervalHistogram, monitorEventLoopDelay } from "node:perf_hooks";

/**
 * The server's longest event-loop block since the last call, for `npm run bench:heavy`: a
 * diagnostic that exists only when ASSUMEPROBE_LOOP_STATS=1 (else 404). Measured inside the
 * server with perf_hooks.monitorEventLoopDelay (10 ms resolution), so the figure is the server's
 * own, not a client's round trip. Each call answers and starts a new measurement.
 */
const KEY = Symbol.for("assumeprobe.loopStats");
type Holder = { [KEY]?: IntervalHistogram };

export function GET() {
  if (process.env.ASSUMEPROBE_LOOP_STATS !== "1") return new Response("not found\n", { status: 404 });
  const g = globalThis as Holder;
  let h = g[KEY];
  if (!h) {
    h = monitorEventLoopDelay({ resolution: 10 });
    h.enable();
    g[KEY] = h;
  }
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  const body = {
    maxMs: h.count > 0 ? ms(h.max) : 0,
    p99Ms: h.count > 0 ? ms(h.percentile(99)) : 0,
    samples: h.count,
    rssMb: Math.round(process.memoryUsage().rss / 1e5) / 10,
  };
  h.reset();
  return Response.json(body, { headers: { "cache-control": "no-store" } });
}
