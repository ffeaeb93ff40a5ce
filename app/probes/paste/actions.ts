"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { saveMadeProbe } from "@/db/queries/probeFromTrace";
import { parseProbe } from "@/lib/probe/fromTrace";

export interface PasteState {
  error?: string;
  text?: string;
}

/** Validates a pasted probe with the probe schema and saves it (a new probe, or a new version of its id). */
export async function pasteProbeAction(_prev: PasteState, form: FormData): Promise<PasteState> {
  const text = typeof form.get("json") === "string" ? (form.get("json") as string) : "";
  const r = parseProbe(text);
  if (!r.ok) return { error: r.error, text };
  const saved = saveMadeProbe(getDb(), r.probe, "paste");
  redirect(
    `/probes/${encodeURIComponent(r.probe.id)}?saved=${encodeURIComponent(r.probe.id)}&version=${saved.version}`,
  );
}
