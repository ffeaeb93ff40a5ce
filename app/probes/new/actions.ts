"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { getRejected, reingestRejected, saveMadeProbe } from "@/db/queries/probeFromTrace";
import { listProbes } from "@/db/queries/probes";
import { probeFromDraft } from "@/lib/probe/fromTrace";
import { rejectedWhatIf } from "@/lib/probe/rejectedWhatIf";
import { choicesOf, loadSource } from "./source";

export interface MakeState {
  error?: string;
}

/** Saves the probe (a new probe, or a new version of the id), then re-ingests the rejected records it now matches. */
export async function saveMadeProbeAction(_prev: MakeState, form: FormData): Promise<MakeState> {
  const kind = form.get("kind") === "trace" ? "trace" : "rejected";
  const id = Number(form.get("source"));
  if (!Number.isInteger(id) || id <= 0)
    return { error: "source: the record to make the probe from is missing" };
  const db = getDb();
  const src = loadSource(db, kind, id);
  if ("error" in src) return { error: src.error };
  const choices = choicesOf(
    (k) => (typeof form.get(k) === "string" ? (form.get(k) as string) : null),
    (k) => form.getAll(k).filter((v): v is string => typeof v === "string"),
  );
  const made = probeFromDraft(src.draft, choices);
  if (!made.ok) return { error: made.error };
  const saved = saveMadeProbe(db, made.probe, "browser");
  const stored = listProbes(db).map((p) => p.probe);
  const w = rejectedWhatIf(saved.probe, stored, src.rejected);
  const rows = w.matchedIds.map((i) => getRejected(db, i)).filter((r) => r !== undefined);
  const params = new URLSearchParams({ saved: made.probe.id, version: String(saved.version) });
  if (rows.length > 0) {
    const r = await reingestRejected(db, rows);
    if (r.failed)
      return { error: `the probe was saved (version ${saved.version}); re-ingesting failed: ${r.failed}` };
    revalidatePath("/");
    redirect(`/ingests/${r.batchIds[0]}?${params}`);
  }
  redirect(`/probes/${encodeURIComponent(made.probe.id)}?${params}`);
}
