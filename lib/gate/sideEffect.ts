import type { WorldState } from "./facts";
import { requireKnown } from "./requireKnown";

/**
 * Wraps a side effect so it runs only after `requireKnown(state, ...required)` passes. The wrapper never
 * retries, never fills a missing fact and never catches: a blocked call throws `AssumptionError` and `fn`
 * is not called; an allowed call calls `fn` exactly once with the same state and arguments.
 */
export function sideEffect<A extends unknown[], R>(
  required: readonly string[],
  fn: (state: WorldState, ...args: A) => R,
): (state: WorldState, ...args: A) => R {
  // Copy: mutating the caller's array later must not loosen the gate.
  const names = Object.freeze([...required]);
  return (state: WorldState, ...args: A): R => {
    requireKnown(state, ...names);
    return fn(state, ...args);
  };
}
