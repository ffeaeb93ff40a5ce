import { z } from "zod";
import { FACT_STATUSES, type Fact, type WorldState } from "./facts";

/** Validates a fact's status at the project's boundaries (trace records, probe files). */
export const FactStatusSchema = z.enum(FACT_STATUSES);

export const FactSchema = z
  .object({
    status: FactStatusSchema,
    value: z.unknown().optional(),
    source: z.string().optional(),
  })
  .strict();

export const WorldStateSchema = z.record(z.string(), FactSchema);

// The schemas and the zod-free types in facts.ts must describe the same shape.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameFact: Same<z.infer<typeof FactSchema>, Fact> = true;
const sameState: Same<z.infer<typeof WorldStateSchema>, WorldState> = true;
void sameFact;
void sameState;
