import { SuggestionsSection } from "@/app/_tuning/SuggestionsSection";
import type { TuningTarget } from "@/lib/tuning/contract";

/**
 * THE PLACE FOR SUGGESTIONS (issue 15) on the lexicon page and on a probe's tune page: candidate
 * terms learned from human labels, the reverse suggestions, and the mutation check, each with its
 * what-if (app/_tuning/). Both pages render this slot between the draft editor and the
 * versions.
 */
export function TuneSuggestionsSlot({ scope }: { scope: TuningTarget }) {
  return <SuggestionsSection target={scope} />;
}
