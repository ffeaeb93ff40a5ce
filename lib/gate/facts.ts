// No zod here: this file is part of the self-contained `assumeprobe/gate` entry (lib/gate/public.ts).
// The schemas that validate facts at the project's boundaries are in factSchema.ts.

/** A fact's statuses, in the order they are listed to users. */
export const FACT_STATUSES = ["known", "unknown", "conflict"] as const;

/** A fact's status in the agent's world state: unknown is a value, not a missing key. */
export type FactStatus = (typeof FACT_STATUSES)[number];

export interface Fact {
  status: FactStatus;
  value?: unknown;
  source?: string;
}

/** Facts by name, in the order they were declared. */
export type WorldState = Record<string, Fact>;

export const fact = {
  known: (value: unknown, source = "unset"): Fact => ({ status: "known", value, source }),
  unknown: (): Fact => ({ status: "unknown", value: null, source: "unset" }),
  conflict: (value: unknown = null, source = "conflict"): Fact => ({ status: "conflict", value, source }),
};

/**
 * A required fact passes only when known with a value other than null or "" (0 and false are values).
 * Anything that is not a fact object (null, a string) is not a known fact: callers of the package may pass
 * any state, and the gate must block on it, never crash.
 */
export function isUsable(f: Fact | null | undefined): boolean {
  return (
    typeof f === "object" &&
    f !== null &&
    f.status === "known" &&
    f.value !== null &&
    f.value !== undefined &&
    f.value !== ""
  );
}
