import { z } from "zod";
import { type Db, getDb } from "@/db/client";
import { getRunSummary } from "@/db/queries/runs";
import { ANY_FIELD } from "@/lib/ingest/tags";
import { parseTraceFilter, type TraceFilter } from "@/lib/traceFilter";

/** What a run page's bulk action names: the run, its filter (the page's query string) and the field. */
export const BulkScopeSchema = z.object({
  run: z.string().min(1).max(500),
  /** The run page's query string (its filter). */
  query: z.string().max(4000),
  field: z.string().min(1).max(200),
});

export type BulkScope =
  | { db: Db; runId: number; runName: string; filter: TraceFilter; error?: undefined }
  | { error: string };

/**
 * The run and filter a bulk relabel or bulk add works on, or what is wrong with them: the run
 * page's filter without paging, on the field it names.
 */
export function bulkScope(input: z.infer<typeof BulkScopeSchema>): BulkScope {
  const db = getDb();
  const run = getRunSummary(db, input.run);
  if (!run) return { error: `there is no run "${input.run}"` };
  if (input.field !== ANY_FIELD && !run.fields.some((f) => f.field === input.field))
    return { error: `run "${run.name}" has no field "${input.field}"` };
  const filter = parseTraceFilter(Object.fromEntries(new URLSearchParams(input.query)));
  return {
    db,
    runId: run.id,
    runName: run.name,
    filter: { ...filter, after: undefined, before: undefined, field: input.field },
  };
}
