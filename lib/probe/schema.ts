import { z } from "zod";
import { FactSchema } from "../gate/facts";

export const LABELS = ["ASK", "OMIT", "COPY", "INJECT", "DRIFT", "ERROR"] as const;
export const LabelSchema = z.enum(LABELS);
export type Label = z.infer<typeof LabelSchema>;

/** A probe id is used in URLs and on command lines: keep it plain. */
/** What a probe id may hold (also read by the ingest fast path, lib/ingest/traceRecord.ts). */
export const PROBE_ID = /^[A-Za-z0-9][A-Za-z0-9_.:@-]*$/;

export const ProbeIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(PROBE_ID, "probe id: letters, digits and _ . : @ - (not first)");

const JsonObjectSchema = z.record(z.string(), z.unknown());

export const ToolSchema = z.object({
  name: z.string().min(1),
  description: z.string().default(""),
  /** JSON Schema of the arguments. */
  parameters: JsonObjectSchema.default({ type: "object", properties: {} }),
  /** Fail closed: a tool has side effects unless it says it has none. */
  mutating: z.boolean().default(true),
});
export type Tool = z.infer<typeof ToolSchema>;

export const ProbeSchema = z
  .object({
    id: ProbeIdSchema,
    title: z.string().optional(),
    system: z.string().default(""),
    user: z.string(),
    hidden: JsonObjectSchema.default({}),
    redacted: JsonObjectSchema.default({}),
    tool: ToolSchema.optional(),
    tools: z.array(ToolSchema).optional(),
    fields: z.array(z.string().min(1)).optional(),
    ask_terms: z.record(z.string(), z.array(z.string().min(1))).default({}),
    bait: z.array(z.string()).default([]),
    clarify_tool: z.string().min(1).optional(),
    requires: z.array(z.string().min(1)).default([]),
    facts: z.record(z.string(), FactSchema).optional(),
  })
  .strict();
/** A probe as written in a file (defaults not yet applied). */
export type ProbeInput = z.input<typeof ProbeSchema>;
/** A validated probe definition. */
export type Probe = z.infer<typeof ProbeSchema>;

/** Turns zod issues into one line that says what was wrong and where. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join(".") : "(top)"}: ${i.message}`)
    .join("; ");
}
