import { z } from "zod";
import { UserError } from "../errors";
import { fieldTermsProblem, termListsProblem } from "./limits";
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
  .object({
    terms: z.array(z.string().min(1)).superRefine((terms, ctx) => {
      const p = fieldTermsProblem("the entry", terms.length);
      if (p) ctx.addIssue({ code: "custom", message: p });
    }),
    rule: z.enum(ASK_RULES),
  })
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

/**
 * The entry keyed `*`: terms that count for every probed field of every probe, beside the field's
 * own entry and the probe's terms; its rule applies to its own terms only. `*` is reserved: no
 * probe field can be named so (lib/probe/schema.ts).
 */
export const ANY_FIELD_ENTRY = "*";

/** The lexicon's entry for a field name, if it has one. */
export function entryFor(lexicon: Lexicon, field: string): LexiconEntry | undefined {
  return Object.hasOwn(lexicon.entries, field) ? lexicon.entries[field] : undefined;
}

export class LexiconError extends UserError<"lexicon"> {
  constructor(message: string) {
    super("lexicon", message);
  }
}

/**
 * An entry as stored: terms normalized (lib/lexicon/terms.ts), each once, sorted; null when it
 * says nothing (no terms and the default rule), so it is left out. Throws LexiconError for a bad
 * term, naming the field.
 */
export function normalizeEntry(
  field: string,
  entry: LexiconEntry,
  o: NormalizeOptions = {},
): LexiconEntry | null {
  const terms = new Set<string>();
  for (const raw of entry.terms) {
    const t = normalizeTerm(raw);
    const problem = termProblem(t);
    if (problem) throw new LexiconError(`${field}: ${problem}`);
    terms.add(t);
  }
  const tooMany = o.limits === false ? null : fieldTermsProblem(field, terms.size);
  if (tooMany) throw new LexiconError(tooMany);
  if (terms.size === 0 && entry.rule === "anywhere") return null;
  return { terms: [...terms].sort(), rule: entry.rule };
}

function checkField(field: string): void {
  if (field.trim() === "" || field !== field.trim())
    throw new LexiconError(`field name "${field}": no leading or trailing spaces, not empty`);
  if (field.length > MAX_FIELD_NAME_LENGTH)
    throw new LexiconError(`field name "${field.slice(0, 40)}…" is longer than ${MAX_FIELD_NAME_LENGTH}`);
}

/**
 * Entries as stored: each normalized, empty ones left out, fields in order, within the limits
 * (lib/lexicon/limits.ts). Throws LexiconError, naming the field, term or limit.
 */
export function normalizeEntries(
  entries: Readonly<Record<string, LexiconEntry>>,
  o: NormalizeOptions = {},
): Record<string, LexiconEntry> {
  const out: Record<string, LexiconEntry> = {};
  for (const field of Object.keys(entries).sort()) {
    checkField(field);
    const e = normalizeEntry(field, entries[field], o);
    if (e) out[field] = e;
  }
  if (o.limits === false) return out;
  const p = termListsProblem(entryTerms(out), "the lexicon");
  if (p) throw new LexiconError(p);
  return out;
}

export interface NormalizeOptions {
  /**
   * false: leave the limits on counts unchecked. Only for drafts that are scored and never saved
   * (a suggestion weighed against a lexicon already at its limits); every save checks them.
   */
  limits?: boolean;
}

/** The terms of entries by field, as the limits read them. */
export function entryTerms(
  entries: Readonly<Record<string, LexiconEntry>>,
): Record<string, readonly string[]> {
  const out: Record<string, readonly string[]> = {};
  for (const [f, e] of Object.entries(entries)) out[f] = e.terms;
  return out;
}

/** An edit of the lexicon, as `assumeprobe lexicon edit` and the lexicon page make them. */
export interface LexiconEdit {
  /** Fields whose whole entry goes (terms and rule), before anything else. */
  clear?: readonly string[];
  add?: readonly { field: string; term: string }[];
  remove?: readonly { field: string; term: string }[];
  rule?: readonly { field: string; rule: AskRule }[];
}

/**
 * Applies an edit to entries: cleared fields, removals, then additions, then rules. Removing a
 * term the entry does not hold, or clearing an entry there is not, is an error (it names the
 * field and term), so a typo does not pass silently. Returns normalized entries (normalizeEntries).
 */
export function applyLexiconEdit(
  entries: Readonly<Record<string, LexiconEntry>>,
  edit: LexiconEdit,
  o: NormalizeOptions = {},
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
  for (const field of edit.clear ?? []) {
    if (!work.delete(field)) throw new LexiconError(`${field}: the lexicon has no entry to clear`);
  }
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
  return normalizeEntries(out, o);
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
