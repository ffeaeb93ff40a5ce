import { runHref } from "../runPath";

/** The trace records the runner writes (DESIGN.md, "Running probes"): one per answer. */

export const TRACE_SCHEMA = "assumeprobe/trace@1";

/** Digits of a sample number: 4 (`#0001`), more when a probe has more samples. */
export function sampleWidth(samples: number): number {
  return Math.max(4, String(samples).length);
}

/** `PROBE#NNNN`: the probe id and the sample number from 1. */
export function sampleId(probe: string, sample: number, width = 4): string {
  return `${probe}#${String(sample).padStart(width, "0")}`;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** `YYYYMMDD-HHMMSS` in UTC. */
export function stamp(d: Date): string {
  return (
    `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}-` +
    `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`
  );
}

/** The default run name: `MODEL/run-YYYYMMDD-HHMMSS` (UTC). */
export function defaultRunName(model: string, at: Date): string {
  return `${model}/run-${stamp(at)}`;
}

export interface RunRecord {
  schema: typeof TRACE_SCHEMA;
  id: string;
  run: string;
  model: string;
  probe: string;
  /** The whole provider payload: scoring normalizes it (fence recovery applies). */
  raw: unknown;
  started_at: string;
  latency_ms: number;
  params: Record<string, unknown>;
}

export interface AnswerInput {
  id: string;
  run: string;
  /** The model name asked for: the run pins it. */
  model: string;
  probe: string;
  raw: unknown;
  startedAt: Date;
  latencyMs: number;
  params: Record<string, unknown>;
}

/** One answer as a trace record: `raw` and no `response`. */
export function answerRecord(a: AnswerInput): RunRecord {
  return {
    schema: TRACE_SCHEMA,
    id: a.id,
    run: a.run,
    model: a.model,
    probe: a.probe,
    raw: a.raw,
    started_at: a.startedAt.toISOString(),
    latency_ms: Math.round(a.latencyMs),
    params: a.params,
  };
}

/**
 * The link to a run on the dashboard, from the environment: `ASSUMEPROBE_URL` (the dashboard's
 * address, e.g. behind a proxy), else `HOST` and `PORT` as `npm start` serves them (a wildcard bind
 * address is reached on loopback). Null when neither names a port: a guessed one would be wrong as
 * often as not, so the caller shows the run's path alone.
 */
export function runUrl(name: string, env: Record<string, string | undefined> = process.env): string | null {
  const base = env.ASSUMEPROBE_URL?.trim();
  if (base) {
    try {
      const u = new URL(base);
      if (u.protocol === "http:" || u.protocol === "https:")
        return `${u.origin}${u.pathname.replace(/\/+$/, "")}${runHref(name)}`;
    } catch {
      // Not a URL: read as unset.
    }
  }
  const port = env.PORT?.trim();
  if (!port) return null;
  let host = env.HOST?.trim() || "127.0.0.1";
  if (host === "0.0.0.0" || host === "::" || host === "[::]") host = "127.0.0.1";
  if (host.includes(":") && !host.startsWith("[")) host = `[${host}]`;
  return `http://${host}:${port}${runHref(name)}`;
}

/** The summary's line for a run on the dashboard: its link when the environment gives one, else its path. */
export function dashboardLine(name: string, env: Record<string, string | undefined> = process.env): string {
  const url = runUrl(name, env);
  return url ? `dashboard: ${url}` : `on the dashboard at ${runHref(name)} (set ASSUMEPROBE_URL for a link)`;
}
