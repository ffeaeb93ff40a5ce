import type { ChatClient } from "./chatClient";
import type { ChatRequest } from "./request";
import type { Sample } from "./resume";
import { type Failure, isFatal, isRetryable, MAX_RETRIES, retryDelayMs } from "./retry";

export interface Answer {
  sample: Sample;
  raw: unknown;
  startedAt: Date;
  /** The answered attempt's time, from sending to the whole body. */
  latencyMs: number;
}

export interface SampleEvents {
  /** An answer arrived: write it now (the run waits for this before its next request). */
  answer(a: Answer): void;
  /** An attempt failed and will be retried after `delayMs`. */
  retry(sample: Sample, failure: Failure, delayMs: number): void;
  /** A sample failed after its retries (or at once, for an answer a retry cannot change). */
  failed(sample: Sample, failure: Failure): void;
  /** A request is about to be sent. */
  request?(sample: Sample): void;
}

export interface RunDeps {
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Stops the run from outside (an interrupt): no new request, in-flight ones aborted. */
  stop?: AbortSignal;
  /** Retries per sample, at most MAX_RETRIES (the default). */
  retries?: number;
}

export interface SamplesOutcome {
  /** The failure that stopped the run at once (401, 404, no server), if one did. */
  fatal?: Failure;
  /** The run was stopped from outside. */
  interrupted: boolean;
}

/** A sleep that ends early when the run stops. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * Asks every sample with at most `concurrency` requests in flight (1: serial, as the article
 * advises), retrying by the policy in retry.ts. A fatal failure stops the run at once: no new
 * request, in-flight ones aborted, and their answers dropped.
 */
export async function runSamples(
  samples: readonly Sample[],
  concurrency: number,
  client: ChatClient,
  body: (s: Sample) => ChatRequest,
  events: SampleEvents,
  deps: RunDeps = {},
): Promise<SamplesOutcome> {
  const sleep = deps.sleep ?? abortableSleep;
  const random = deps.random ?? Math.random;
  const maxRetries = Math.min(deps.retries ?? MAX_RETRIES, MAX_RETRIES);
  const stopper = new AbortController();
  const onOuterStop = () => stopper.abort();
  deps.stop?.addEventListener("abort", onOuterStop, { once: true });
  if (deps.stop?.aborted) stopper.abort();
  const outcome: SamplesOutcome = { interrupted: false };
  let next = 0;

  const ask = async (s: Sample) => {
    for (let retry = 0; ; retry++) {
      if (stopper.signal.aborted) return;
      events.request?.(s);
      const startedAt = new Date();
      const t0 = performance.now();
      const r = await client.attempt(body(s), stopper.signal);
      if (stopper.signal.aborted) return;
      if (r.ok) {
        events.answer({ sample: s, raw: r.raw, startedAt, latencyMs: performance.now() - t0 });
        return;
      }
      if (isFatal(r.failure.kind)) {
        outcome.fatal ??= r.failure;
        stopper.abort();
        return;
      }
      if (!isRetryable(r.failure.kind) || retry >= maxRetries) {
        events.failed(s, r.failure);
        return;
      }
      const delay = retryDelayMs(retry + 1, r.failure, random);
      events.retry(s, r.failure, delay);
      await sleep(delay, stopper.signal);
    }
  };

  const worker = async () => {
    while (!stopper.signal.aborted && next < samples.length) await ask(samples[next++]);
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, samples.length)) }, worker));
  } finally {
    deps.stop?.removeEventListener("abort", onOuterStop);
  }
  outcome.interrupted = deps.stop?.aborted === true && outcome.fatal === undefined;
  return outcome;
}
