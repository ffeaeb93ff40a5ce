/**
 * What limits a lexicon keyed by field name on data like When2Call, measured: the same suggestion
 * rules and the same scorer, but with every field sharing one entry (as if the lexicon had a key
 * that counts for every field name; DESIGN.md has no such key, so this is an analysis, not a
 * feature). Learned from the train run's labels only, then scored on the measure run.
 */
import type { Db } from "../../db/client";
import { scoredInputs } from "../../db/queries/suggest";
import { EMPTY_LEXICON } from "../../lib/lexicon/lexicon";
import type { Label } from "../../lib/probe/schema";
import { bindSuggestion } from "../../lib/tuning/bind";
import { suggestChanges } from "../../lib/tuning/suggest";
import type { AskRule, LabelledField, SuggestionEvaluator, TermChange } from "../../lib/tuning/types";

const ANY = "*";

/** The draft for one real field: every change to the shared key, made to that field's entry. */
const expand = (draft: readonly TermChange[], field: string): TermChange[] =>
  draft.map((c) => (c.field === ANY ? { ...c, field } : c));

export interface AnyFieldResult {
  changes: TermChange[];
  measure: { human: number; ours: number; both: number };
}

export function anyFieldAnalysis(db: Db, train: string, measure: string, limit = 40): AnyFieldResult {
  const trainBound = bindSuggestion(scoredInputs(db, { runs: [train], sets: [] }).inputs, EMPTY_LEXICON, {
    kind: "lexicon",
  });
  const real = new Map<string, LabelledField>();
  const items = trainBound.fields.map((f) => {
    const item = { ...f, field: ANY };
    real.set(item.key, f);
    return item;
  });
  const inner = trainBound.evaluator;
  const ev: SuggestionEvaluator = {
    rules: true,
    prepare: inner.prepare,
    accepts: inner.accepts,
    rule: (_field, draft) =>
      draft.reduce<AskRule>((r, c) => (c.kind === "rule" && c.field === ANY ? c.rule : r), "anywhere"),
    removable: () => [],
    label: (item, draft) => {
      const f = real.get(item.key) as LabelledField;
      return inner.label(f, expand(draft, f.field));
    },
    termsOf: (item) => inner.termsOf?.(real.get(item.key) as LabelledField) ?? [],
  };
  const changes = suggestChanges(items, ev, { limit }).map((s) => s.change);
  const measured = bindSuggestion(scoredInputs(db, { runs: [measure], sets: [] }).inputs, EMPTY_LEXICON, {
    kind: "lexicon",
  });
  let human = 0;
  let ours = 0;
  let both = 0;
  for (const f of measured.fields) {
    const label: Label = measured.evaluator.label(f, expand(changes, f.field));
    if (f.human === "ASK") human++;
    if (label === "ASK") ours++;
    if (f.human === "ASK" && label === "ASK") both++;
  }
  return { changes, measure: { human, ours, both } };
}
