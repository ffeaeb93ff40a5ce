/**
 * Requests the dashboard answers off its request thread (a what-if, suggestions): each a function
 * the worker thread (worker.ts) calls directly on its own connection, its answer posted back as
 * it is (no command line, no JSON read from an output). Nothing here is saved or resumed.
 */
import { isUserError } from "../../lib/errors";
import type { SuggestionsJson, SuggestRequestInput, TuneDraft } from "../../lib/tuning/contract";
import type { WhatIfReport } from "../../lib/tuning/whatIf";
import type { Db } from "../client";
import { syncSeedSet } from "../queries/fixtureSeed";
import { suggestFor, suggestionJson } from "../queries/suggest";
import { type WhatIfOptions, whatIf } from "../queries/whatIf";

export const CALLS = {
  whatIf: (db: Db, a: { draft: TuneDraft; options?: WhatIfOptions }): WhatIfReport =>
    whatIf(db, a.draft, a.options),
  suggest: (db: Db, r: SuggestRequestInput): SuggestionsJson => {
    // The seed set is built in: present before any what-if, so a change that breaks it is seen.
    syncSeedSet(db);
    return suggestionJson(
      suggestFor(db, { scope: { runs: r.runs, sets: r.sets, probe: r.probe ?? undefined }, limit: r.top }),
    );
  },
};

export type CallName = keyof typeof CALLS;
export type CallArgs<N extends CallName> = Parameters<(typeof CALLS)[N]>[1];
export type CallResult<N extends CallName> = ReturnType<(typeof CALLS)[N]>;

/** An error that is the user's to fix (a bad term, an unknown probe or run): its message says what. */
export function refused(e: unknown): boolean {
  return isUserError(e);
}

export interface CallRequest {
  seq: number;
  path: string;
  name: CallName;
  args: unknown;
}

export type CallReply = { seq: number; value: unknown } | { seq: number; error: string; refused: boolean };
