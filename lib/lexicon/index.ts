/**
 * The lexicon core's pure API (no database). Storage is db/queries/lexicon.ts (read and save
 * versions) and db/queries/probes.ts (saveProbeConfiguration: probe edits as versions that stay
 * current); fixture sets score under a draft with db/queries/fixtureScoring.ts (FixtureScoring with
 * a ScoringDraft).
 *
 * - Terms (terms.ts): normalizeTerm, termProblem, holdsTerm, termMatches: whole words, one or
 *   more, at word boundaries; a trailing `*` a prefix; lower-cased on both sides with combining
 *   marks dropped (fold.ts); substrings in scripts written without spaces.
 * - Limits (limits.ts): TERM_LIMITS and the checks every writer of terms applies.
 * - Matching (matcher.ts, termFinder.ts): one compiled matcher per list of terms, linear in the
 *   text and the terms.
 * - Entries and versions (lexicon.ts): Lexicon, LexiconEntry, AskRule, EMPTY_LEXICON,
 *   NO_LEXICON_VERSION, entryFor, normalizeEntries, applyLexiconEdit, diffEntries,
 *   describeEntryChanges, LexiconError.
 * - When a reply asks (ask.ts): fieldAsk and AskText, which compileProbe (lib/probe/compile.ts)
 *   builds per probed field; scoreTrace reads them.
 * - Drafts (draft.ts): draftLexicon, compileDraft, scoreWithDraft, DRAFT_LEXICON_VERSION.
 */
export { AskText, type FieldAsk, fieldAsk } from "./ask";
export {
  compileDraft,
  DRAFT_LEXICON_VERSION,
  draftLexicon,
  type ScoringDraftParts,
  scoreWithDraft,
} from "./draft";
export {
  ANY_FIELD_ENTRY,
  ASK_RULES,
  type AskRule,
  applyLexiconEdit,
  describeEntryChanges,
  diffEntries,
  EMPTY_LEXICON,
  type EntryChange,
  entryFor,
  type Lexicon,
  type LexiconEdit,
  type LexiconEntry,
  LexiconEntrySchema,
  LexiconError,
  NO_LEXICON_VERSION,
  normalizeEntries,
  normalizeEntry,
} from "./lexicon";
export {
  askTermsProblem,
  fieldTermsProblem,
  overLimitNotice,
  TERM_LIMITS,
  termListsProblem,
  termTextProblem,
} from "./limits";
export { lexiconTermMatcher, probeTermMatcher, type TermMatcher } from "./matcher";
export { holdsTerm, MAX_TERM_LENGTH, normalizeTerm, termMatches, termProblem } from "./terms";
