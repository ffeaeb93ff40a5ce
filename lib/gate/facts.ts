import { z } from "zod";

/** A fact's status in the agent's world state: unknown is a value, not a missing key. */
export const FactStatusSchema = z.enum(["known", "unknown", "conflict"]);
export type FactStatus = z.infer<typeof FactStatusSchema>;

export const FactSchema = z
  .object({
    status: FactStatusSchema,
    value: z.unknown().optional(),
    source: z.string().optional(),
  })
  .strict();
export type Fact = z.infer<typeof FactSchema>;

/** Facts by name, in the order they were declared. */
export const WorldStateSchema = z.record(z.string(), FactSchema);
export type WorldState = Record<string, Fact>;

export const fact = {
  known: (value: unknown, source = "unset"): Fact => ({ status: "known", value, source }),
  unknown: (): Fact => ({ status: "unknown", value: null, source: "unset" }),
  conflict: (value: unknown = null, source = "conflict"): Fact => ({ status: "conflict", value, source }),
};

/** A required fact passes only when known with a value other than null or "" (0 and false are values). */
export function isUsable(f: Fact | undefined): boolean {
  return (
    f !== undefined && f.status === "known" && f.value !== null && f.value !== undefined && f.value !== ""
  );
}
