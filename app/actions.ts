"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { type FormState, validated } from "@/app/_lib/validatedAction";
import { getDb } from "@/db/client";
import { deleteRun, getRunByName } from "@/db/queries/runs";

const DeleteRunSchema = z.object({
  name: z.string().min(1, "run name is missing").max(200),
  /** The trace count the reviewer confirmed: a run that grew since is not deleted blind. */
  traces: z.coerce.number().int().nonnegative(),
});

export type ActionState = FormState;

/** Deletes one run (its traces, counts and rejected lines); nothing else is touched. */
export async function deleteRunAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return validated(DeleteRunSchema, { name: form.get("name"), traces: form.get("traces") }, async (d) => {
    const db = getDb();
    const run = getRunByName(db, d.name);
    if (!run) return { ok: false, error: `there is no run "${d.name}" (already deleted?)` };
    if (run.traceCount !== d.traces) {
      return {
        ok: false,
        error: `run "${run.name}" now has ${run.traceCount.toLocaleString("en-US")} traces, not ${d.traces.toLocaleString("en-US")}: reload and confirm again`,
      };
    }
    await deleteRun(db, run.id);
    revalidatePath("/");
    redirect(`/?deleted=${encodeURIComponent(run.name)}`);
  });
}
