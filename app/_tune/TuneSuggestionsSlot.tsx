/**
 * THE PLACE FOR SUGGESTIONS (issue 15) on the lexicon page and on a probe's tune page: candidate
 * terms learned from human labels, the reverse suggestions, and the mutation check go here, each
 * with its what-if. Both pages already render this slot where the panel belongs, between the
 * draft editor and the versions; it renders nothing until that panel exists.
 */
export type SuggestionsScope = { kind: "lexicon" } | { kind: "probe"; probe: string };

export function TuneSuggestionsSlot({ scope }: { scope: SuggestionsScope }) {
  return <div data-testid="suggestions-slot" data-scope={scope.kind} hidden />;
}
