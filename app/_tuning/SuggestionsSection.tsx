import { getDb } from "@/db/client";
import { syncSeedSet } from "@/db/queries/fixtureSeed";
import { labelledRuns, labelledSets } from "@/db/queries/labelledScope";
import { lexiconMutationCheck, probeMutationCheck } from "@/db/queries/mutation";
import type { TuningTarget } from "@/lib/tuning/contract";
import { MutationCard } from "./MutationCard";
import { SuggestionsPanel } from "./SuggestionsPanel";

/**
 * The lexicon page's and a probe's tune page's suggestions (issue 15): the panel that learns from
 * human labels, and the mutation check of the saved configuration with its dead terms.
 */
export function SuggestionsSection({ target }: { target: TuningTarget }) {
  const db = getDb();
  syncSeedSet(db);
  const probe = target.kind === "probe" ? target.probe : undefined;
  const report = target.kind === "lexicon" ? lexiconMutationCheck(db) : probeMutationCheck(db, target.probe);
  return (
    <div className="space-y-4" data-testid="suggestions-section">
      <SuggestionsPanel target={target} runs={labelledRuns(db, probe)} sets={labelledSets(db, probe)} />
      <MutationCard report={report} />
    </div>
  );
}
