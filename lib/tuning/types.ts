import type { AskRule } from "../lexicon/lexicon";
import type { Label } from "../probe/schema";

export type { AskRule };

/** Where a field's human label came from (DESIGN.md: reviews, imported labels, fixtures). */
export type HumanSource = "review" | "imported" | "fixture";

/** One field with a human label, as the suggestion rules read it. */
export interface LabelledField {
  /** Unique within one suggestion's input (`trace:12:timezone`, `fixture:7`). */
  key: string;
  /** The field name: the lexicon's key (with `--probe`, a field of that probe). */
  field: string;
  /** The response text as the scorer reads it, in its own case ("" when there is none). */
  text: string;
  /**
   * Lower-cased strings an added term also counts in, whatever the rule: a clarify call's
   * arguments (the call asks for a field it names).
   */
  also?: readonly string[];
  /** Our label under the current configuration. */
  ours: Label;
  human: Label;
  source: HumanSource;
  /**
   * The trace it belongs to (a suggestion needs fixes from different traces); default: its key
   * up to the field (`trace:12` of `trace:12:timezone`), else its key.
   */
  trace?: string;
}

/** The trace a labelled field belongs to, for "fixes from different traces". */
export function traceOf(item: LabelledField): string {
  if (item.trace !== undefined) return item.trace;
  const m = /^(trace:\d+):/.exec(item.key);
  return m ? m[1] : item.key;
}

/** One change a suggestion proposes, to the lexicon entry of a field (or a probe's terms for it). */
export type TermChange =
  | { kind: "add"; field: string; term: string }
  | { kind: "remove"; field: string; term: string }
  | { kind: "rule"; field: string; rule: AskRule };

export function describeChange(c: TermChange): string {
  if (c.kind === "add") return `add ${c.field}=${JSON.stringify(c.term)}`;
  if (c.kind === "remove") return `remove ${c.field}=${JSON.stringify(c.term)}`;
  return `rule ${c.field}=${c.rule}`;
}

export function sameChange(a: TermChange, b: TermChange): boolean {
  if (a.kind !== b.kind || a.field !== b.field) return false;
  if (a.kind === "rule" && b.kind === "rule") return a.rule === b.rule;
  return (a as { term: string }).term === (b as { term: string }).term;
}

/**
 * What the ranking asks of the scorer. Bound to the real scorer (lib/tuning/bind.ts) for the
 * product; tests bind it to a small model of DESIGN.md's rules.
 */
export interface SuggestionEvaluator {
  /**
   * A lower-cased text (the whole reply, or one question sentence under the `question` rule) as
   * added terms are matched in it: white space runs as one space for the lexicon (its terms'
   * words match across any), as it is for a probe's own terms (substrings). It changes white
   * space only, never case (source sentences are shown through it).
   */
  prepare(lower: string): string;
  /**
   * Whether an added term occurring at [start, end) of a prepared text counts as a match: whole
   * words for the lexicon, anywhere for a probe's own terms.
   */
  accepts(prepared: string, start: number, end: number): boolean;
  /** Whether rule changes may be suggested (the lexicon holds rules; a probe's terms do not). */
  readonly rules: boolean;
  /** The field's ask rule under the draft. */
  rule(field: string, draft: readonly TermChange[]): AskRule;
  /** The terms of the field a removal may take out, under the draft (the lexicon's, or the probe's own). */
  removable(field: string, draft: readonly TermChange[]): readonly string[];
  /** The field's ask terms now (the probe's and the lexicon's), to show where a rule change bites. */
  termsOf?(item: LabelledField): readonly string[];
  /** The field's label under the current configuration with the draft applied: the one scorer. */
  label(item: LabelledField, draft: readonly TermChange[]): Label;
}
