import { type DecisionSink, decisionRecord } from "./decisionLog";
import { stepFor } from "./decisionTable";
import type { WorldState } from "./facts";
import { judge } from "./requireKnown";

export interface SideEffectOptions {
  /** The name decisions are logged under (default: the wrapped function's name). */
  tool?: string;
  /** Called with each decision, before the side effect runs or the block is thrown. */
  log?: DecisionSink;
}

/** `async function` (not merely a function that returns a promise): its block must reject, not throw. */
function isAsyncFunction(fn: unknown): boolean {
  return Object.prototype.toString.call(fn) === "[object AsyncFunction]";
}

/**
 * Wraps a side effect so it runs only after `requireKnown(state, ...required)` passes. The wrapper never
 * retries, never fills a missing fact and never catches: a blocked call throws `AssumptionError` (an async
 * function's wrapper returns a rejected promise) and `fn` is not called; an allowed call calls `fn`
 * exactly once with the same state and arguments. With `log`, each decision goes to the sink first; a sink
 * that throws stops the call, so a side effect never runs unlogged.
 */
export function sideEffect<A extends unknown[], R>(
  required: readonly string[],
  fn: (state: WorldState, ...args: A) => R,
  options: SideEffectOptions = {},
): (state: WorldState, ...args: A) => R {
  // Copy: mutating the caller's array later must not loosen the gate.
  const names = Object.freeze([...required]);
  const { log } = options;
  const tool = options.tool ?? (fn.name || "side_effect");
  const gated = (state: WorldState, ...args: A): R => {
    const { gate, error } = judge(state, names);
    if (log)
      log(decisionRecord({ tool, requires: names, state, args, gate, step: error?.step ?? stepFor(gate) }));
    if (error) throw error;
    return fn(state, ...args);
  };
  if (!isAsyncFunction(fn)) return gated;
  return (async (state: WorldState, ...args: A) => gated(state, ...args)) as (
    state: WorldState,
    ...args: A
  ) => R;
}
