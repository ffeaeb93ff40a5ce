import { applyConfiguration, type ProbeConfiguration } from "../fixtures/configuration";
import { type CompiledProbe, compileProbe } from "../probe/compile";
import type { NormalizedResponse } from "../probe/response";
import type { Probe } from "../probe/schema";
import { scoreTrace, type TraceInput, type TraceScore } from "../probe/score";
import { EMPTY_LEXICON, type Lexicon, type LexiconEntry, normalizeEntries } from "./lexicon";

/**
 * Scoring under a draft (a what-if, a suggestion): a probe configuration and/or lexicon entries
 * that are not saved. It goes through the one scorer, exactly as the saved configuration would.
 */

/** The version number a draft lexicon carries: no stored version has it. */
export const DRAFT_LEXICON_VERSION = -1;

/** Entries as a lexicon to score with (normalized as a save would store them). Throws LexiconError. */
export function draftLexicon(entries: Readonly<Record<string, LexiconEntry>>): Lexicon {
  return { version: DRAFT_LEXICON_VERSION, entries: normalizeEntries(entries) };
}

export interface ScoringDraftParts {
  /** The probe's scoring configuration to use instead of its own. */
  configuration?: ProbeConfiguration;
  /** The lexicon to use (default: none). */
  lexicon?: Lexicon;
}

/**
 * A probe compiled under a draft. Compile once and score many traces with it: compiled probes
 * are cached per (lexicon, definition) object, and a draft configuration makes a new definition.
 */
export function compileDraft(probe: Probe, draft: ScoringDraftParts): CompiledProbe {
  const p = draft.configuration ? applyConfiguration(probe, draft.configuration) : probe;
  return compileProbe(p, draft.lexicon ?? EMPTY_LEXICON);
}

/** One response (with its trace's other parts, if any) scored under a draft. */
export function scoreWithDraft(
  trace: NormalizedResponse | TraceInput,
  probe: Probe | CompiledProbe,
  draft: ScoringDraftParts = {},
): TraceScore {
  const input: TraceInput = "response" in trace ? trace : { response: trace };
  const compiled = "visible" in probe ? probe : compileDraft(probe, draft);
  return scoreTrace(input, compiled);
}
