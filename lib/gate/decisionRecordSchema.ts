import { z } from "zod";
import { GATE_LOG_SCHEMA, type GateDecisionRecord } from "./decisionLog";
import { FactSchema } from "./factSchema";

const Name = z.string().max(500);

const GateSchema = z
  .object({
    verdict: z.enum(["allow", "block"]),
    unknown: z.array(Name),
    conflict: z.array(Name),
    next: z.enum(["ask", "stop"]).nullable(),
  })
  .strict()
  .superRefine((g, ctx) => {
    const blocking = g.unknown.length + g.conflict.length > 0;
    const expected = !blocking ? null : g.conflict.length > 0 ? "stop" : "ask";
    if ((g.verdict === "block") !== blocking)
      ctx.addIssue({
        code: "custom",
        message:
          g.verdict === "block"
            ? "a block names the fields that block it in unknown or conflict"
            : "an allow has no unknown or conflict fields",
      });
    else if (g.next !== expected)
      ctx.addIssue({
        code: "custom",
        path: ["next"],
        message: `next must be ${JSON.stringify(expected)} for this verdict (stop when any fact conflicts, else ask)`,
      });
  });

const ROW_OF_NEXT = { ask: "unknown", stop: "conflict" } as const;

/**
 * One line of a decision log (DESIGN.md's trace format, the gate-only record `assumeprobe/gate@1`):
 * what `sideEffect`'s sink, the Node file sink and the Python twin write. Unknown top-level keys are
 * kept for later versions of the form; the named ones must hold their shape, and the verdict, its
 * field lists, `next` and the decision table's row must agree with each other.
 */
export const GateDecisionRecordSchema = z
  .looseObject({
    schema: z.literal(GATE_LOG_SCHEMA, { error: `schema must be "${GATE_LOG_SCHEMA}"` }),
    id: z.string().min(1).max(500),
    time: z.iso.datetime({ offset: true }),
    tool: z.string().min(1).max(200),
    requires: z.array(Name),
    arguments: z.array(z.unknown()),
    keyword_arguments: z.record(z.string(), z.unknown()).optional(),
    world_state: z.record(z.string(), FactSchema),
    gate: GateSchema,
    next_step: z.object({ row: z.enum(["all_known", "unknown", "conflict"]), message: z.string() }).strict(),
    implementation: z.enum(["typescript", "python"]),
    redacted: z.literal(true).optional(),
    run: z.string().min(1).max(200).optional(),
    model: z.string().min(1).max(300).optional(),
  })
  .superRefine((r, ctx) => {
    const row = r.gate.next === null ? "all_known" : ROW_OF_NEXT[r.gate.next];
    if (r.next_step.row !== row)
      ctx.addIssue({
        code: "custom",
        path: ["next_step", "row"],
        message: `the row for verdict ${r.gate.verdict} with next ${JSON.stringify(r.gate.next)} is "${row}"`,
      });
    const required = new Set(r.requires);
    for (const list of ["unknown", "conflict"] as const)
      for (const name of r.gate[list])
        if (!required.has(name))
          ctx.addIssue({
            code: "custom",
            path: ["gate", list],
            message: `${JSON.stringify(name)} blocks but is not in requires`,
          });
  });

// The zod-free record type the entry exports and this schema describe the same shape.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same: Same<
  Pick<z.infer<typeof GateDecisionRecordSchema>, keyof GateDecisionRecord>,
  GateDecisionRecord
> = true;
void same;
