/**
 * Exports of a fixture set, produced as streams of text (read in keyset batches, so a set of any
 * size is exported in bounded memory and no statement stays open between batches): JSONL, one
 * fixture a line (lib/fixtures/exportLine.ts), and the pytest module (lib/fixtures/pytest.ts).
 */
import type { LexiconEntry } from "../../lib/fixtures/configuration";
import { FixtureError } from "../../lib/fixtures/errors";
import { fixtureLine, type HistoryEntry, type SourceRef } from "../../lib/fixtures/exportLine";
import { type PytestWorld, pytestModule } from "../../lib/fixtures/pytest";
import { ANY_FIELD_ENTRY, entryFor } from "../../lib/lexicon/lexicon";
import type { NormalizedResponse } from "../../lib/probe/response";
import type { Label } from "../../lib/probe/schema";
import type { Settled } from "../../lib/review/rounds";
import type { Db } from "../client";
import { FixtureScoring } from "./fixtureScoring";
import { type FixtureSetRow, getSet } from "./fixtureSets";

const BATCH = 1000;

interface Row {
  id: number;
  identity: string;
  probe: string;
  world: string;
  response: string;
  field: string;
  expected: Label;
  reviewer: string;
  note: string;
  settled: Settled;
  source: string | null;
  history: string;
  createdAt: string;
  updatedAt: string;
}

function requireSet(db: Db, name: string): FixtureSetRow {
  const set = getSet(db, name);
  if (!set) throw new FixtureError("no_set", `there is no fixture set "${name}"`);
  return set;
}

/** A set's fixture rows in id order, batch by batch. */
function* rows<T>(db: Db, setId: number, columns: string): Generator<T & { id: number }> {
  const stmt = db.sqlite.prepare(
    `SELECT id, ${columns} FROM fixtures WHERE set_id = ? AND id > ? ORDER BY id LIMIT ?`,
  );
  let after = 0;
  for (;;) {
    const batch = stmt.all(setId, after, BATCH) as (T & { id: number })[];
    if (batch.length === 0) return;
    yield* batch;
    after = batch[batch.length - 1].id;
  }
}

/** The shared lexicon's entry for a field at export time (the lexicon the export scores with). */
function lexiconEntry(ctx: FixtureScoring, field: string): LexiconEntry | null {
  const e = entryFor(ctx.lexicon, field);
  return e ? { terms: [...e.terms], rule: e.rule } : null;
}

/** One JSON line per fixture of the set, in the order they were added. */
export function* exportFixtureLines(db: Db, setName: string): Generator<string> {
  const set = requireSet(db, setName);
  const ctx = new FixtureScoring(db);
  for (const r of rows<Row>(
    db,
    set.id,
    `identity, probe_id AS probe, world_digest AS world, response, field, expected, reviewer, note, settled, source, history,
     created_at AS createdAt, updated_at AS updatedAt`,
  )) {
    const line = fixtureLine(
      {
        set: set.name,
        identity: r.identity,
        probe: r.probe,
        field: r.field,
        expected: r.expected,
        reviewer: r.reviewer,
        note: r.note,
        settled: r.settled,
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
        source: r.source === null ? null : (JSON.parse(r.source) as SourceRef),
        history: JSON.parse(r.history) as HistoryEntry[],
        world: ctx.world(r.world),
        response: JSON.parse(r.response) as NormalizedResponse,
      },
      ctx.probe(r.probe).config,
      lexiconEntry(ctx, r.field),
      lexiconEntry(ctx, ANY_FIELD_ENTRY),
    );
    yield JSON.stringify(line);
  }
}

/** The set's pytest module, chunk by chunk. */
export function* exportPytest(
  db: Db,
  setName: string,
  opts: { module: string; reference: boolean },
): Generator<string> {
  const set = requireSet(db, setName);
  const ctx = new FixtureScoring(db);
  const digests = db.sqlite
    .prepare("SELECT world_digest FROM fixtures WHERE set_id = ? GROUP BY world_digest ORDER BY min(id)")
    .pluck()
    .all(set.id) as string[];
  const worlds: PytestWorld[] = digests.map((digest) => {
    const world = ctx.world(digest);
    const p = ctx.probe(world.id);
    return { digest, world, version: p.version, config: p.config };
  });
  yield* pytestModule({
    set: set.name,
    description: set.description,
    scorerVersion: ctx.scorerVersion(),
    module: opts.module,
    reference: opts.reference,
    lexicon: ctx.lexicon,
    worlds,
    fixtures: (function* () {
      for (const r of rows<{
        identity: string;
        world: string;
        response: string;
        field: string;
        expected: string;
      }>(db, set.id, "identity, world_digest AS world, response, field, expected"))
        yield {
          identity: r.identity,
          worldDigest: r.world,
          response: JSON.parse(r.response) as NormalizedResponse,
          field: r.field,
          expected: r.expected,
        };
    })(),
    identities: (function* () {
      for (const r of rows<{ identity: string }>(db, set.id, "identity")) yield r.identity;
    })(),
  });
}
