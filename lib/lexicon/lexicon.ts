import { z } from "zod";
import { normalizeTerm, termProblem } from "./terms";

/**
 * The shared lexicon (DESIGN.md, "Tuning the scorer"): per field name, terms that count as asking
 * for that field in every probe probing a field of that name, in addition to the probe's own, and
 * the field's ask rule. Versioned: version 0 is the empty lexicon it starts as, so the built-in
 * configuration keeps seed parity. Pure: storage is db/queries/lexicon.ts.
 */

export const ASK_RULES = ["anywhere", "question"] as const;
/**
 * `anywhere` (the seed's rule, the default): a term anywhere in the text asks. `question`: the
 * field's terms, the probe's and the lexicon's, count only inside a question sentence
 * (lib/review/question.ts).
 */
export type AskRule = (typeof ASK_RULES)[number];

/** A shared lexicon entry for one field name (terms, and the field's ask rule). */
export interface LexiconEntry {
  terms: string[];
  rule: AskRule;
}

export const LexiconEntrySchema = z
  .object({ terms: z.array(z.string().min(1)), rule: z.enum(ASK_RULES) })
  .strict();

/** One version of the lexicon: its entries by field name. Treated as immutable once made. */
export interface Lexicon {
  /** 0: the empty lexicon (nothing saved yet). */
  version: number;
  entries: Readonly<Record<string, LexiconEntry>>;
}

/** The lexicon version that means "no lexicon": the shared lexicon starts empty. */
export const NO_LEXICON_VERSION = 0;

export const EMPTY_LEXICON: Lexicon = Object.freeze({
  version: NO_LEXICON_VERSION,
  entries: Object.freeze({}),
}) as Lexicon;

export const MAX_FIELD_NAME_LENGTH = 200;

/** The lexicon's entry for a field name, if it has one. */
export function entryFor(lexicon: Lexicon, field: string): LexiconEntry | undefined {
  return Object.hasOwn(lexicon.entries, field) ? lexicon.entries[field] : undefined;
}

export class LexiconError extends Error {}

/**
 * An entry as stored: terms normalized (lib/lexicon/terms.ts), each once, sorted; null when it
 * says nothing (no terms and the default rule), so it is left out. Throws LexiconError for a bad
 * term, naming the field.
 */
export function normalizeEntry(field: string, entry: LexiconEntry): LexiconEntry | null {
  const terms = new Set<string>();
  for (const raw of entry.terms) {
    const t = normalizeTerm(raw);
    const problem = termProblem(t);
    if (problem) throw new LexiconError(`${field}: ${problem}`);
    terms.add(t);
  }
  if (terms.size === 0 && entry.rule === "anywhere") return null;
  return { terms: [...terms].sort(), rule: entry.rule };
}

function checkField(field: string): void {
  if (field.trim() === "" || field !== field.trim())
    throw new LexiconError(`field name "${field}": no leading or trailing spaces, not empty`);
  if (field.length > MAX_FIELD_NAME_LENGTH)
    throw new LexiconError(`field name "${field.slice(0, 40)}…" is longer than ${MAX_FIELD_NAME_LENGTH}`);
}

/** Entries as stored: each normalized, empty ones left out, fields in order. Throws LexiconError. */
export function normalizeEntries(
  entries: Readonly<Record<string, LexiconEntry>>,
): Record<string, LexiconEntry> {
  const out: Record<string, LexiconEntry> = {};
  for (const field of Object.keys(entries).sort()) {
    checkField(field);
    const e = normalizeEntry(field, entries[field]);
    if (e) out[field] = e;
  }
  return out;
}

/** An edit of the lexicon, as `assumeprobe lexicon edit` and the lexicon page make them. */
export interface LexiconEdit {
  add?: readonly { field: string; term: string }[];
  remove?: readonly { field: string; term: string }[];
  rule?: readonly { field: string; rule: AskRule }[];
}

/**
 * Applies an edit to entries: removals, then additions, then rules. Removing a term the entry
 * does not hold is an error (it names the field and term), so a typo does not pass silently.
 * Returns normalized entries (normalizeEntries).
 */
export function applyLexiconEdit(
  entries: Readonly<Record<string, LexiconEntry>>,
  edit: LexiconEdit,
): Record<string, LexiconEntry> {
  const work = new Map<string, { terms: Set<string>; rule: AskRule }>();
  for (const [f, e] of Object.entries(entries)) work.set(f, { terms: new Set(e.terms), rule: e.rule });
  const at = (field: string) => {
    checkField(field);
    let e = work.get(field);
    if (!e) {
      e = { terms: new Set(), rule: "anywhere" };
      work.set(field, e);
    }
    return e;
  };
  for (const { field, term } of edit.remove ?? []) {
    const t = normalizeTerm(term);
    if (!at(field).terms.delete(t))
      throw new LexiconError(`${field}: the lexicon has no term "${t}" to remove`);
  }
  for (const { field, term } of edit.add ?? []) {
    const t = normalizeTerm(term);
    const problem = termProblem(t);
    if (problem) throw new LexiconError(`${field}: ${problem}`);
    at(field).terms.add(t);
  }
  for (const { field, rule } of edit.rule ?? []) at(field).rule = rule;
  const out: Record<string, LexiconEntry> = {};
  for (const [f, e] of work) out[f] = { terms: [...e.terms], rule: e.rule };
  return normalizeEntries(out);
}

/** How one field's entry differs between two lexicons. */
export interface EntryChange {
  field: string;
  added: string[];
  removed: string[];
  /** Set when the rule changed: [from, to]. */
  rule?: [AskRule, AskRule];
}

/** The fields whose entry differs between two sets of entries, in field order. */
export function diffEntries(
  before: Readonly<Record<string, LexiconEntry>>,
  after: Readonly<Record<string, LexiconEntry>>,
): EntryChange[] {
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const out: EntryChange[] = [];
  for (const field of fields) {
    const a = Object.hasOwn(before, field) ? before[field] : undefined;
    const b = Object.hasOwn(after, field) ? after[field] : undefined;
    const had = new Set(a?.terms ?? []);
    const has = new Set(b?.terms ?? []);
    const added = [...has].filter((t) => !had.has(t)).sort();
    const removed = [...had].filter((t) => !has.has(t)).sort();
    const ruleA = a?.rule ?? "anywhere";
    const ruleB = b?.rule ?? "anywhere";
    if (added.length === 0 && removed.length === 0 && ruleA === ruleB) continue;
    const c: EntryChange = { field, added, removed };
    if (ruleA !== ruleB) c.rule = [ruleA, ruleB];
    out.push(c);
  }
  return out;
}

/** "timezone +region −zone, rule anywhere → question" for a change list. */
export function describeEntryChanges(changes: readonly EntryChange[]): string {
  if (changes.length === 0) return "no change";
  return changes
    .map((c) => {
      const parts = [...c.added.map((t) => `+"${t}"`), ...c.removed.map((t) => `−"${t}"`)];
      if (c.rule) parts.push(`rule ${c.rule[0]} → ${c.rule[1]}`);
      return `${c.field} ${parts.join(" ")}`;
    })
    .join("; ");
}
