/**
 * The lexicon core's pure API (no database). Storage is db/queries/lexicon.ts (read and save
 * versions) and db/queries/probes.ts (saveProbeConfiguration: probe edits as versions that stay
 * current); fixture sets score under a draft with db/queries/fixtureScoring.ts (FixtureScoring with
 * a ScoringDraft).
 *
 * - Terms (terms.ts): normalizeTerm, termProblem, holdsTerm, termsRegExp, termMatches: whole words,
 *   one or more, at word boundaries; a trailing `*` a prefix; lower-cased on both sides.
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
export { holdsTerm, MAX_TERM_LENGTH, normalizeTerm, termMatches, termProblem, termsRegExp } from "./terms";
