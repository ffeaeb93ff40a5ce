"use server";

import { revalidatePath } from "next/cache";
import { type ActionFail, refusal, validated } from "@/app/_lib/validatedAction";
import { currentReviewer } from "@/app/_review/reviewer";
import { getDb } from "@/db/client";
import { startJob } from "@/db/jobs/background";
import { callOffThread } from "@/db/jobs/offThread";
import { syncSeedSet } from "@/db/queries/fixtureSeed";
import { LexiconConflict, saveLexiconAsync } from "@/db/queries/lexicon";
import { getProbe, ProbeEditError, saveProbeConfiguration } from "@/db/queries/probes";
import { queueDashboardRescores, type RescoreProgressView, rescoreProgress } from "@/db/queries/rescore/jobs";
import { staleRuns } from "@/db/queries/runScoringView";
import { runByName } from "@/db/queries/tuneRuns";
import { saveGuard } from "@/db/queries/whatIf";
import { write } from "@/db/write";
import {
  RescoreIdsSchema,
  SaveDraftSchema,
  StartRescoreSchema,
  type SuggestionsJson,
  SuggestRequestSchema,
  TuneDraftSchema,
} from "@/lib/tuning/contract";
import { guardWords, needsConfirmation, type SaveGuard } from "@/lib/tuning/guard";
import type { WhatIfReport } from "@/lib/tuning/whatIf";

/** Longer than this and the suggestions are given up (nothing is kept). */
const SUGGEST_TIMEOUT_MS = 5 * 60_000;

/** Who saves or asks: the session's name, else the browser's cookie, else the name the page sent. */
async function requester(sent: string | undefined): Promise<string | null> {
  const who = await currentReviewer();
  return who.source === "session" ? who.name : (who.name ?? sent ?? null);
}

/** The what-if of a draft (nothing is saved), computed off the request thread. */
export async function whatIfAction(input: unknown): Promise<{ ok: true; report: WhatIfReport } | ActionFail> {
  return validated(TuneDraftSchema, input, async (draft) => {
    const db = getDb();
    syncSeedSet(db);
    try {
      return { ok: true as const, report: await callOffThread(db, "whatIf", { draft }) };
    } catch (e) {
      return refusal(e, "what-if failed", "the what-if could not be computed: try again");
    }
  });
}

export type SaveResult =
  | { ok: true; version: number; created: boolean }
  | (ActionFail & { guard?: SaveGuard; current?: number });

/**
 * Saves a draft as a new version: the lexicon's, or the probe's configuration (which then stays
 * current). The server checks the guard itself (lib/tuning/guard.ts): a draft that breaks a seed
 * fixture is saved only when the person confirmed it. A draft made from a version that is no longer current is
 * refused (someone saved meanwhile), so no change is lost silently.
 */
export async function saveDraftAction(input: unknown): Promise<SaveResult> {
  return validated(SaveDraftSchema, input, async (d): Promise<SaveResult> => {
    const by = await requester(d.reviewer);
    if (!by) return { ok: false, error: "say who is saving first", needsReviewer: true };
    const db = getDb();
    const draft = d.draft;
    try {
      syncSeedSet(db);
      const guard = saveGuard(db, draft);
      if (needsConfirmation(guard) && !d.allowBreak)
        return { ok: false, guard, error: `this breaks ${guardWords(guard)}: confirm to save it anyway` };
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
      // Someone saved the lexicon meanwhile: the page learns the version to look at.
      if (e instanceof LexiconConflict) return { ok: false, error: e.message, current: e.current };
      return refusal(e, "saving a draft failed", "the draft could not be saved: try again");
    }
  });
}

/** Starts re-scores of the runs a scope covers, in the background; returns their progress. */
export async function startRescoreAction(
  input: unknown,
): Promise<{ ok: true; jobs: RescoreProgressView[] } | ActionFail> {
  return validated(StartRescoreSchema, input, async ({ scope, reviewer }) => {
    const by = await requester(reviewer);
    if (!by) return { ok: false, error: "say who asks for the re-score first", needsReviewer: true } as const;
    const db = getDb();
    const runs =
      scope.kind === "stale"
        ? staleRuns(db, scope.probe)
        : [runByName(db, scope.run)].filter((r) => r !== undefined);
    if (runs.length === 0)
      return {
        ok: false,
        error:
          scope.kind === "run"
            ? `there is no run "${scope.run}"`
            : "every run is scored with the current configuration",
      } as const;
    const ids = await write(db, () =>
      queueDashboardRescores(
        db,
        runs.map((r) => r.id),
        by,
      ),
    );
    for (const id of ids) void startJob(db, "rescore", id);
    return { ok: true as const, jobs: rescoreProgress(db, ids) };
  });
}

/** The progress of re-scores a page started: a read, it never starts work. */
export async function rescoreStatusAction(
  input: unknown,
): Promise<{ ok: true; jobs: RescoreProgressView[] } | ActionFail> {
  return validated(RescoreIdsSchema, input, ({ ids }) => ({
    ok: true as const,
    jobs: rescoreProgress(getDb(), ids),
  }));
}

/**
 * Suggestions for the lexicon or a probe from the human labels in scope, with their what-ifs,
 * computed on a worker thread (db/jobs), so ranking a hundred thousand labelled fields never holds
 * up the server's thread. Nothing is saved.
 */
export async function suggestAction(
  input: unknown,
): Promise<{ ok: true; result: SuggestionsJson } | ActionFail> {
  return validated(SuggestRequestSchema, input, async (request) => {
    try {
      return {
        ok: true as const,
        result: await callOffThread(getDb(), "suggest", request, { timeoutMs: SUGGEST_TIMEOUT_MS }),
      };
    } catch (e) {
      return refusal(e, "suggestions failed", "the suggestions could not be found: try again");
    }
  });
}
