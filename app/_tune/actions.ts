"use server";

import { revalidatePath } from "next/cache";
import { currentReviewer } from "@/app/_review/reviewer";
import { getDb } from "@/db/client";
import { startJob } from "@/db/jobs/background";
import { callOffThread } from "@/db/jobs/offThread";
import { syncSeedSet } from "@/db/queries/fixtureSeed";
import { currentLexiconVersion, LexiconConflict, saveLexiconAsync } from "@/db/queries/lexicon";
import { getProbe, ProbeEditError, saveProbeConfiguration } from "@/db/queries/probes";
import { queueDashboardRescores, type RescoreProgressView, rescoreProgress } from "@/db/queries/rescoreJobs";
import { staleRuns } from "@/db/queries/runScoringView";
import { runByName } from "@/db/queries/tuneRuns";
import { seedBreaks, type TuneDraft } from "@/db/queries/whatIf";
import { write } from "@/db/write";
import { describeInvalid, isUserError } from "@/lib/errors";
import { RescoreIdsSchema, SaveDraftSchema, StartRescoreSchema, TuneDraftSchema } from "@/lib/tune/contract";
import type { WhatIfReport } from "@/lib/tune/whatIf";

type Fail = { ok: false; error: string; needsReviewer?: true };

/** The what-if of a draft (nothing is saved), computed off the request thread. */
export async function whatIfAction(input: unknown): Promise<{ ok: true; report: WhatIfReport } | Fail> {
  const parsed = TuneDraftSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: describeInvalid(parsed.error) };
  const db = getDb();
  syncSeedSet(db);
  try {
    return { ok: true, report: await callOffThread(db, "whatIf", { draft: parsed.data as TuneDraft }) };
  } catch (e) {
    if (isUserError(e)) return { ok: false, error: (e as Error).message };
    throw e;
  }
}

export type SaveResult =
  | { ok: true; version: number; created: boolean }
  | (Fail & { seedBroken?: number; current?: number });

/**
 * Saves a draft as a new version: the lexicon's, or the probe's configuration (which then stays
 * current). The server checks the seed set itself: a draft that breaks a seed fixture is saved
 * only when the person confirmed it. A draft made from a version that is no longer current is
 * refused (someone saved meanwhile), so no change is lost silently.
 */
export async function saveDraftAction(input: unknown): Promise<SaveResult> {
  const parsed = SaveDraftSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: describeInvalid(parsed.error) };
  const d = parsed.data;
  const who = await currentReviewer();
  const by = who.source === "session" ? who.name : (who.name ?? d.reviewer ?? null);
  if (!by) return { ok: false, error: "say who is saving first", needsReviewer: true };
  const db = getDb();
  syncSeedSet(db);
  const draft = d.draft as TuneDraft;
  try {
    const broken = seedBreaks(db, draft);
    if (broken > 0 && !d.allowBreak)
      return {
        ok: false,
        seedBroken: broken,
        error: `this breaks ${broken} fixture(s) of the seed set: confirm to save it anyway`,
      };
    if (draft.kind === "lexicon") {
      const saved = await saveLexiconAsync(db, draft.entries, { by, base: d.base });
      revalidatePath("/lexicon");
      return { ok: true, version: saved.version, created: saved.created };
    }
    const saved = await write(db, () => {
      const now = getProbe(db, draft.probe);
      if (now && now.version !== d.base)
        throw new ProbeEditError(
          `probe ${draft.probe} changed since this draft was made (draft from version ${d.base}, current version ${now.version}): nothing was saved; look at version ${now.version} and save again`,
        );
      return saveProbeConfiguration(db, draft.probe, draft.configuration, by);
    });
    revalidatePath(`/probes/${encodeURIComponent(draft.probe)}`);
    return { ok: true, version: saved.version, created: saved.created };
  } catch (e) {
    if (e instanceof LexiconConflict)
      return { ok: false, error: e.message, current: currentLexiconVersion(db) };
    if (isUserError(e)) return { ok: false, error: (e as Error).message };
    throw e;
  }
}

/** Starts re-scores of the runs a scope covers, in the background; returns their progress. */
export async function startRescoreAction(
  input: unknown,
): Promise<{ ok: true; jobs: RescoreProgressView[] } | Fail> {
  const parsed = StartRescoreSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: describeInvalid(parsed.error) };
  const who = await currentReviewer();
  const by = who.source === "session" ? who.name : (who.name ?? parsed.data.reviewer ?? null);
  if (!by) return { ok: false, error: "say who asks for the re-score first", needsReviewer: true };
  const db = getDb();
  const s = parsed.data.scope;
  const runs =
    s.kind === "stale" ? staleRuns(db, s.probe) : [runByName(db, s.run)].filter((r) => r !== undefined);
  if (runs.length === 0)
    return {
      ok: false,
      error:
        s.kind === "run"
          ? `there is no run "${s.run}"`
          : "every run is scored with the current configuration",
    };
  const ids = await write(db, () =>
    queueDashboardRescores(
      db,
      runs.map((r) => r.id),
      by,
    ),
  );
  for (const id of ids) void startJob(db, "rescore", id);
  return { ok: true, jobs: rescoreProgress(db, ids) };
}

/** The progress of re-scores a page started: a read, it never starts work. */
export async function rescoreStatusAction(
  input: unknown,
): Promise<{ ok: true; jobs: RescoreProgressView[] } | Fail> {
  const parsed = RescoreIdsSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: describeInvalid(parsed.error) };
  const db = getDb();
  return { ok: true, jobs: rescoreProgress(db, parsed.data.ids) };
}
