/**
 * The shared lexicon's storage: each saved version holds the whole lexicon (its entries by field
 * name), with who saved it. Version 0 is the empty lexicon, never stored. Versions never change
 * once saved, so each is read once per connection and shared (the scorer caches compiled probes
 * per lexicon object).
 */
import type Database from "better-sqlite3";
import {
  EMPTY_LEXICON,
  type Lexicon,
  type LexiconEntry,
  LexiconError,
  NO_LEXICON_VERSION,
  normalizeEntries,
} from "../../lib/lexicon/lexicon";
import type { Db } from "../client";
import { write, writeSync } from "../write";

export interface LexiconVersionRow {
  version: number;
  savedBy: string;
  /** edit (a page or the command line), import:<file>, suggest. */
  origin: string;
  note: string;
  createdAt: string;
  /** Field names with an entry, and terms in all. */
  fields: number;
  terms: number;
}

/** Someone saved another version since the draft's base: nothing was written. */
export class LexiconConflict extends LexiconError {
  constructor(
    readonly base: number,
    readonly current: number,
  ) {
    super(
      `the lexicon changed since this draft was made (draft from version ${base}, current version ${current}): nothing was saved; look at version ${current} and save again`,
    );
  }
}

const versionsByDb = new WeakMap<Database.Database, Map<number, Lexicon>>();

function freeze(version: number, entries: Record<string, LexiconEntry>): Lexicon {
  for (const e of Object.values(entries)) {
    Object.freeze(e.terms);
    Object.freeze(e);
  }
  return Object.freeze({ version, entries: Object.freeze(entries) });
}

/** The newest saved version's number (0: nothing saved yet). */
export function currentLexiconVersion(db: Db): number {
  return (db.sqlite.prepare("SELECT max(version) FROM lexicon_versions").pluck().get() as number | null) ?? 0;
}

/** One version of the lexicon (0: the empty one), or undefined when there is no such version. */
export function lexiconAt(db: Db, version: number): Lexicon | undefined {
  if (version === NO_LEXICON_VERSION) return EMPTY_LEXICON;
  let cache = versionsByDb.get(db.sqlite);
  if (!cache) {
    cache = new Map();
    versionsByDb.set(db.sqlite, cache);
  }
  const hit = cache.get(version);
  if (hit) return hit;
  const exists = db.sqlite.prepare("SELECT 1 FROM lexicon_versions WHERE version = ?").pluck().get(version);
  if (exists === undefined) return undefined;
  const rows = db.sqlite
    .prepare("SELECT field, terms, rule FROM lexicon_entries WHERE version = ? ORDER BY field")
    .all(version) as { field: string; terms: string; rule: LexiconEntry["rule"] }[];
  const entries: Record<string, LexiconEntry> = {};
  for (const r of rows) entries[r.field] = { terms: JSON.parse(r.terms) as string[], rule: r.rule };
  const lexicon = freeze(version, entries);
  cache.set(version, lexicon);
  return lexicon;
}

/** The lexicon scoring uses now: its newest saved version (the empty one before any). */
export function currentLexicon(db: Db): Lexicon {
  return lexiconAt(db, currentLexiconVersion(db)) ?? EMPTY_LEXICON;
}

/** Saved versions, newest first. */
export function listLexiconVersions(db: Db, limit = 200): LexiconVersionRow[] {
  return db.sqlite
    .prepare(
      `SELECT v.version, v.saved_by AS savedBy, v.origin, v.note, v.created_at AS createdAt,
         (SELECT count(*) FROM lexicon_entries e WHERE e.version = v.version) AS fields,
         (SELECT coalesce(sum(json_array_length(e.terms)), 0) FROM lexicon_entries e WHERE e.version = v.version) AS terms
       FROM lexicon_versions v ORDER BY v.version DESC LIMIT ?`,
    )
    .all(limit) as LexiconVersionRow[];
}

export interface SaveLexiconOptions {
  /** Who saves it (a reviewer's name, or what imported it). */
  by: string;
  origin?: string;
  note?: string;
  /**
   * The version the entries were drafted from: when another version was saved since, nothing is
   * written and LexiconConflict is thrown. Omit to save over whatever is current.
   */
  base?: number;
}

export interface SavedLexicon {
  version: number;
  /** False when the entries equal the current version's (nothing was written). */
  created: boolean;
  lexicon: Lexicon;
}

/**
 * Saves entries as the lexicon's next version, inside the caller's transaction (see saveLexicon).
 * Entries are normalized first (LexiconError for a bad one); the same entries as the current
 * version's write nothing.
 */
export function saveLexiconIn(
  db: Db,
  entries: Readonly<Record<string, LexiconEntry>>,
  o: SaveLexiconOptions,
): SavedLexicon {
  const by = o.by.trim();
  if (by === "") throw new LexiconError("say who saves the lexicon (a name)");
  const normalized = normalizeEntries(entries);
  const current = currentLexiconVersion(db);
  if (o.base !== undefined && o.base !== current) throw new LexiconConflict(o.base, current);
  const now = lexiconAt(db, current) ?? EMPTY_LEXICON;
  if (JSON.stringify(now.entries) === JSON.stringify(normalized))
    return { version: current, created: false, lexicon: now };
  const version = current + 1;
  db.sqlite
    .prepare("INSERT INTO lexicon_versions(version, saved_by, origin, note) VALUES (?, ?, ?, ?)")
    .run(version, by, o.origin ?? "edit", o.note ?? "");
  const insert = db.sqlite.prepare(
    "INSERT INTO lexicon_entries(version, field, terms, rule) VALUES (?, ?, ?, ?)",
  );
  for (const [field, e] of Object.entries(normalized))
    insert.run(version, field, JSON.stringify(e.terms), e.rule);
  const lexicon = freeze(version, normalized);
  // Cached only once committed: a rolled-back version number may be reused.
  return { version, created: true, lexicon };
}

/** Saves a new lexicon version in one IMMEDIATE transaction (the command line, scripts). */
export function saveLexicon(
  db: Db,
  entries: Readonly<Record<string, LexiconEntry>>,
  o: SaveLexiconOptions,
): SavedLexicon {
  return writeSync(db, () => saveLexiconIn(db, entries, o));
}

/** saveLexicon for the server's request thread: waits for the write lock without blocking it. */
export function saveLexiconAsync(
  db: Db,
  entries: Readonly<Record<string, LexiconEntry>>,
  o: SaveLexiconOptions,
): Promise<SavedLexicon> {
  return write(db, () => saveLexiconIn(db, entries, o));
}
