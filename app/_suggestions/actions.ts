"use server";

import { getDb } from "@/db/client";
import { callOffThread } from "@/db/jobs/offThread";
import { describeInvalid } from "@/lib/errors";
import { type SuggestionsJson, SuggestRequestSchema } from "@/lib/tuning/contract";

/** Longer than this and the suggestions are given up (nothing is kept). */
const TIMEOUT_MS = 5 * 60_000;

export type SuggestReply = { ok: true; result: SuggestionsJson } | { ok: false; error: string };

/**
 * Suggestions for the lexicon or a probe from the human labels in scope, with their what-ifs,
 * computed on a worker thread (db/jobs), so ranking a hundred thousand labelled fields never holds
 * up the server's thread. Nothing is saved.
 */
export async function suggestAction(input: unknown): Promise<SuggestReply> {
  const parsed = SuggestRequestSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: describeInvalid(parsed.error) };
  try {
    return {
      ok: true,
      result: await callOffThread(getDb(), "suggest", parsed.data, { timeoutMs: TIMEOUT_MS }),
    };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}
