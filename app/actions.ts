"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getDb } from "@/db/client";
import { deleteRun, getRunByName } from "@/db/queries/runs";

const DeleteRunSchema = z.object({
  name: z.string().min(1, "run name is missing").max(200),
  /** The trace count the reviewer confirmed: a run that grew since is not deleted blind. */
  traces: z.coerce.number().int().nonnegative(),
});

export interface ActionState {
  error?: string;
}

/** Deletes one run (its traces, counts and rejected lines); nothing else is touched. */
export async function deleteRunAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const parsed = DeleteRunSchema.safeParse({ name: form.get("name"), traces: form.get("traces") });
  if (!parsed.success) return { error: parsed.error.issues.map((i) => i.message).join("; ") };
  const db = getDb();
  const run = getRunByName(db, parsed.data.name);
  if (!run) return { error: `there is no run "${parsed.data.name}" (already deleted?)` };
  if (run.traceCount !== parsed.data.traces) {
    return {
      error: `run "${run.name}" now has ${run.traceCount.toLocaleString("en-US")} traces, not ${parsed.data.traces.toLocaleString("en-US")}: reload and confirm again`,
    };
  }
  await deleteRun(db, run.id);
  revalidatePath("/");
  redirect(`/?deleted=${encodeURIComponent(run.name)}`);
}
