import { z } from "zod";
import { FactSchema } from "../gate/factSchema";
import { isObject } from "../isObject";
import { askTermsProblem } from "../lexicon/limits";

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

/** A tool's parameter properties and required names, read defensively (a malformed schema declares none). */
export function toolParameters(tool: Tool | undefined): {
  properties: Record<string, unknown>;
  required: Set<string>;
} {
  const params = tool?.parameters;
  return {
    properties: isObject(params) && isObject(params.properties) ? params.properties : {},
    required: new Set(
      isObject(params) && Array.isArray(params.required)
        ? params.required.filter((x): x is string => typeof x === "string")
        : [],
    ),
  };
}

/** Where a name stands in a tool's schema. */
export type SchemaRole = "required" | "optional" | "not_in_schema";

export function schemaRole(params: ReturnType<typeof toolParameters>, key: string): SchemaRole {
  if (params.required.has(key)) return "required";
  return Object.hasOwn(params.properties, key) ? "optional" : "not_in_schema";
}

/** A probe's own ask terms as stored, without the limits: what versions saved before them hold. */
const StoredAskTermsSchema = z.record(z.string(), z.array(z.string().min(1)));

/**
 * A probe's own ask terms as a writer brings them (a file, a record's inline probe, an edit, a
 * fixture import): within the limits of lib/lexicon/limits.ts, each refusal naming the field and
 * the term or limit.
 */
export const AskTermsSchema = StoredAskTermsSchema.superRefine((terms, ctx) => {
  if (Object.hasOwn(terms, RESERVED_FIELD)) ctx.addIssue({ code: "custom", message: RESERVED_MESSAGE });
  const p = askTermsProblem(terms, "the probe");
  if (p) ctx.addIssue({ code: "custom", message: p });
});

/**
 * `*` names the lexicon's entry for every field (lib/lexicon/lexicon.ts, ANY_FIELD_ENTRY) and the
 * "any field" tags: no probe field may be named so.
 */
export const RESERVED_FIELD = "*";
const RESERVED_MESSAGE = `a probe field cannot be named "*": "*" is reserved for the lexicon entry that counts for every field`;

/** The probe's tool: a property named `*` would be a probed field named `*`. */
const ProbeToolSchema = ToolSchema.superRefine((tool, ctx) => {
  if (Object.hasOwn(toolParameters(tool).properties, RESERVED_FIELD))
    ctx.addIssue({ code: "custom", path: ["parameters", "properties"], message: RESERVED_MESSAGE });
});

export const ProbeSchema = z
  .object({
    id: ProbeIdSchema,
    title: z.string().optional(),
    system: z.string().default(""),
    user: z.string(),
    hidden: JsonObjectSchema.default({}),
    redacted: JsonObjectSchema.default({}),
    tool: ProbeToolSchema.optional(),
    tools: z.array(ToolSchema).optional(),
    fields: z
      .array(
        z
          .string()
          .min(1)
          .refine((f) => f !== RESERVED_FIELD, RESERVED_MESSAGE),
      )
      .optional(),
    ask_terms: AskTermsSchema.default({}),
    bait: z.array(z.string()).default([]),
    clarify_tool: z.string().min(1).optional(),
    requires: z.array(z.string().min(1)).default([]),
    facts: z.record(z.string(), FactSchema).optional(),
  })
  .strict();
/**
 * A probe definition as stored: versions saved before the limits existed stay readable (they
 * score as they are; the next edit must bring them within the limits).
 */
export const StoredProbeSchema = ProbeSchema.extend({ ask_terms: StoredAskTermsSchema.default({}) });
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
