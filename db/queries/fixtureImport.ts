/**
 * Import of fixture lines (an export's JSONL) with ingest's guarantees: every bad line is reported
 * by number with what was wrong, every good one is stored (in short IMMEDIATE batches), a line
 * already in its set adds nothing, and the read-only seed set takes nothing. Lines are stored as
 * read (times, history, source reference), so export → import → export gives the same bytes. A
 * probe the database lacks is created from the line's world and configuration; one whose scoring
 * configuration differs gains a version with the line's (both are reported).
 */
import {
  configurationOf,
  type LexiconEntry,
  type ProbeConfiguration,
} from "../../lib/fixtures/configuration";
import { FixtureError } from "../../lib/fixtures/errors";
import { type FixtureLine, parseFixtureLine } from "../../lib/fixtures/exportLine";
import type { NumberedLine } from "../../lib/fixtures/lines";
import { SEED_SET } from "../../lib/fixtures/setName";
import {
  ANY_FIELD_ENTRY,
  entryFor,
  entryTerms,
  LexiconError,
  normalizeEntry,
} from "../../lib/lexicon/lexicon";
import { termListsProblem } from "../../lib/lexicon/limits";
import { canonicalJson } from "../../lib/probe/digest";
import { describeIssues, ProbeSchema } from "../../lib/probe/schema";
import type { Db } from "../client";
import { writeSync } from "../write";
import { checkSetName, fixtureTransaction, writableSet } from "./fixtureSets";
import { writeFixture } from "./fixtures";
import { currentLexicon, saveLexiconIn } from "./lexicon";
import { getProbe, saveProbe } from "./probes";

export interface ImportError {
  line: number;
  reason: string;
}

export interface ImportSummary {
  /** Non-blank lines read. */
  lines: number;
  added: number;
  /** Lines whose fixture was in its set with another expected label: it now has the line's. */
  relabelled: number;
  /** Lines whose fixture was in its set already, with the same expected label: nothing changed. */
  duplicates: number;
  rejected: number;
  sets: { name: string; created: boolean; added: number; relabelled: number }[];
  probes: { id: string; version: number; action: "created" | "new version" }[];
  /** Set when the lines' shared-lexicon entries made a new lexicon version: which fields it changed. */
  lexicon?: { version: number; fields: string[] };
  errors: ImportError[];
  notes: string[];
}

export interface ImportOptions {
  /** Put every line in this set (created when missing) instead of the set each line names. */
  set?: string;
  /** What the file is called, for the origin of probes it creates. */
  file: string;
}

const BATCH = 500;

/** Refuses what no line could change: the seed as the target, a bad target name. Throws FixtureError. */
export function checkImportTarget(set: string | undefined): void {
  if (set === undefined) return;
  checkSetName(set);
  if (set === SEED_SET)
    throw new FixtureError("read_only", "the seed set is read-only: import into another set");
}

function configOfLine(l: FixtureLine): ProbeConfiguration {
  return {
    ask_terms: l.configuration.ask_terms,
    bait: l.configuration.bait,
    clarify_tool: l.configuration.clarify_tool,
  };
}

/** Makes the line's probe exist with the line's configuration; reports what it did. */
function ensureProbe(db: Db, l: FixtureLine, file: string, report: ImportSummary["probes"]): void {
  const want = configOfLine(l);
  const stored = getProbe(db, l.probe);
  const origin = `import:${file}`;
  if (stored && canonicalJson(configurationOf(stored.probe)) === canonicalJson(want)) return;
  const base = stored ? stored.probe : { ...l.world };
  const { clarify_tool: _c, ...rest } = base as Record<string, unknown>;
  const parsed = ProbeSchema.safeParse({
    ...rest,
    ask_terms: want.ask_terms,
    bait: want.bait,
    ...(want.clarify_tool !== null ? { clarify_tool: want.clarify_tool } : {}),
  });
  if (!parsed.success)
    throw new FixtureError("no_probe", `its probe cannot be stored: ${describeIssues(parsed.error)}`);
  // An import brings a configuration on purpose: it is saved as an edit (it stays current).
  const { version, created } = saveProbe(db, parsed.data, origin, { editedBy: "import" });
  if (created) report.push({ id: l.probe, version, action: stored ? "new version" : "created" });
}

/** The trace the line's source names, when this database holds that very trace. */
function liveSource(db: Db, l: FixtureLine): number | null {
  const s = l.source;
  if (!s || typeof s.trace_id !== "number" || typeof s.run !== "string") return null;
  const id = db.sqlite
    .prepare(
      `SELECT t.id FROM traces t JOIN runs r ON r.id = t.run_id
       WHERE t.id = ? AND r.name = ? AND t.ext_id IS ? AND t.probe_id = ?`,
    )
    .pluck()
    .get(s.trace_id, s.run, typeof s.id === "string" ? s.id : null, l.probe) as number | undefined;
  return id ?? null;
}

function writeBatch(db: Db, batch: { line: number; l: FixtureLine }[], o: ImportOptions, sum: ImportSummary) {
  fixtureTransaction(db, () => {
    for (const { line, l } of batch) {
      try {
        const target = o.set ?? l.set;
        const { set, created } = writableSet(db, target);
        let entry = sum.sets.find((x) => x.name === set.name);
        if (!entry) {
          entry = { name: set.name, created, added: 0, relabelled: 0 };
          sum.sets.push(entry);
        }
        ensureProbe(db, l, o.file, sum.probes);
        const last = l.history[l.history.length - 1];
        const r = writeFixture(db, set.id, {
          world: l.world,
          response: l.response,
          field: l.field,
          expected: l.expected,
          reviewer: last.reviewer,
          note: last.note,
          settled: l.settled,
          at: last.at,
          history: l.history,
          createdAt: l.created_at,
          source: l.source,
          sourceTraceId: liveSource(db, l),
        });
        if (r.outcome === "added") {
          sum.added++;
          entry.added++;
        } else if (r.outcome === "relabelled") {
          sum.relabelled++;
          entry.relabelled++;
        } else sum.duplicates++;
      } catch (e) {
        if (!(e instanceof FixtureError)) throw e;
        sum.rejected++;
        sum.errors.push({
          line,
          reason:
            e.code === "read_only" && o.set === undefined
              ? `${e.message} (import it into another set with --set NAME)`
              : e.message,
        });
      }
    }
  });
}

/**
 * The lines' shared-lexicon entries: a field the lexicon lacks, or holds with another entry, takes
 * the lines' (one new lexicon version for the whole import, reported). An entry that would take
 * the lexicon past its limits (lib/lexicon/limits.ts) is left out, with a note naming its line.
 */
function importLexicon(
  db: Db,
  entries: Map<string, { entry: LexiconEntry; line: number }>,
  file: string,
  sum: ImportSummary,
): void {
  if (entries.size === 0) return;
  writeSync(db, () => {
    const now = currentLexicon(db);
    const next: Record<string, LexiconEntry> = { ...now.entries };
    const changed: string[] = [];
    for (const [field, { entry, line }] of entries) {
      const notStored = (why: string) =>
        sum.notes.push(`line ${line}: lexicon entry for "${field}" not stored: ${why}`);
      let wanted: LexiconEntry | null;
      try {
        wanted = normalizeEntry(field, entry);
      } catch (err) {
        notStored((err as Error).message);
        continue;
      }
      const have = entryFor(now, field);
      if (wanted === null || (have && canonicalJson(have) === canonicalJson(wanted))) continue;
      const before = next[field];
      next[field] = wanted;
      const over = termListsProblem(entryTerms(next), "the lexicon");
      // A stored lexicon already past a limit (saved before the limits) takes only what shrinks it.
      if (over && (before === undefined || wanted.terms.length > before.terms.length)) {
        if (before === undefined) delete next[field];
        else next[field] = before;
        notStored(over);
        continue;
      }
      changed.push(field);
    }
    if (changed.length === 0) return;
    let saved: ReturnType<typeof saveLexiconIn>;
    try {
      saved = saveLexiconIn(db, next, { by: "import", origin: `import:${file}` });
    } catch (err) {
      if (!(err instanceof LexiconError)) throw err;
      sum.notes.push(`the file's lexicon entries were not stored: ${err.message}`);
      return;
    }
    if (!saved.created) return;
    sum.lexicon = { version: saved.version, fields: changed.sort() };
    sum.notes.push(
      `shared lexicon: new version ${saved.version} with the file's entries for ${sum.lexicon.fields.map((f) => `"${f}"`).join(", ")}`,
    );
  });
}

/** Imports fixture lines; bad ones are reported and skipped, good ones stored in batches. */
export async function importFixtures(
  db: Db,
  lines: AsyncIterable<NumberedLine & { tooLong?: boolean }>,
  o: ImportOptions,
): Promise<ImportSummary> {
  checkImportTarget(o.set);
  const sum: ImportSummary = {
    lines: 0,
    added: 0,
    relabelled: 0,
    duplicates: 0,
    rejected: 0,
    sets: [],
    probes: [],
    errors: [],
    notes: [],
  };
  let batch: { line: number; l: FixtureLine }[] = [];
  /** The first entry lines carry per field name, and fields whose lines disagree. */
  const entries = new Map<string, { entry: LexiconEntry; line: number }>();
  const disagreeing = new Set<string>();
  for await (const { line, text, tooLong } of lines) {
    sum.lines++;
    if (tooLong) {
      sum.rejected++;
      sum.errors.push({ line, reason: "the line is longer than 64 MB" });
      continue;
    }
    const r = parseFixtureLine(text);
    if (!r.ok) {
      sum.rejected++;
      sum.errors.push({ line, reason: r.reason });
      continue;
    }
    // The field's entry, and the `*` entry (terms for every field) when the line carries one.
    const carried: [string, LexiconEntry | null][] = [
      [r.line.field, r.line.configuration.lexicon],
      [ANY_FIELD_ENTRY, r.line.configuration.lexicon_any ?? null],
    ];
    for (const [field, e] of carried) {
      if (e === null) continue;
      const seen = entries.get(field);
      if (!seen) entries.set(field, { entry: e, line });
      else if (canonicalJson(seen.entry) !== canonicalJson(e)) disagreeing.add(field);
    }
    batch.push({ line, l: r.line });
    if (batch.length >= BATCH) {
      writeBatch(db, batch, o, sum);
      batch = [];
      // A turn of the event loop between batches: a big import on the server's request thread
      // leaves room for other requests (lines come from an async iterable of microtasks alone).
      await new Promise<void>((r) => setImmediate(r));
    }
  }
  if (batch.length > 0) writeBatch(db, batch, o, sum);
  importLexicon(db, entries, o.file, sum);
  for (const f of disagreeing)
    sum.notes.push(`lines carry different lexicon entries for "${f}": the first line's was taken`);
  sum.errors.sort((a, b) => a.line - b.line);
  return sum;
}
