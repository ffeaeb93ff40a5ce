import type { AskRule, Lexicon } from "../lexicon/lexicon";
import { compileProbe } from "../probe/compile";
import type { Probe } from "../probe/schema";

/**
 * A probed field's ask terms as a probe's tune page edits them: read from the probe compiled with
 * the lexicon, the lists the scorer itself matches, so every list that counts for a field (the
 * probe's own, its name while it lists none, the lexicon's) is shown where the scorer gets it.
 */
export interface TuneField {
  field: string;
  /** The probe's own terms for it, lower-cased (empty: it uses the field-name fallback). */
  declared: string[];
  /** The field-name terms that count while it declares none. */
  fallback: string[];
  /** The shared lexicon's terms for its name (read-only on the tune page). */
  lexicon: string[];
  /** The lexicon's ask rule for its name. */
  rule: AskRule;
  /** The lexicon's `*` entry's terms (every field; read-only on the tune page) and their rule. */
  any: string[];
  anyRule: AskRule;
}

export function tuneFields(probe: Probe, lexicon: Lexicon): TuneField[] {
  const c = compileProbe(probe, lexicon);
  return c.fields.map((field) => {
    const ask = c.ask[field];
    const declared = (probe.ask_terms[field] ?? []).map((t) => t.toLowerCase());
    return {
      field,
      declared,
      fallback: declared.length > 0 ? [] : [...ask.probeTerms],
      lexicon: [...ask.lexiconTerms],
      rule: ask.rule,
      any: [...ask.anyTerms],
      anyRule: ask.anyRule,
    };
  });
}
