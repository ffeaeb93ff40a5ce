/**
 * Fixture sets: named, with a description; `seed` is built in and read-only. Its four fixtures
 * (the first article's) are kept by fixtureSeed.ts.
 */
import { FixtureError } from "../../lib/fixtures/errors";
import { SEED_SET, SetDescriptionSchema, SetNameSchema } from "../../lib/fixtures/setName";
import type { Db } from "../client";
import { writeSync } from "../write";

export interface FixtureSetRow {
  id: number;
  name: string;
  description: string;
  builtin: boolean;
  createdAt: string;
  updatedAt: string;
}

const COLUMNS = `id, name, description, builtin, created_at AS createdAt, updated_at AS updatedAt`;

type Raw = Omit<FixtureSetRow, "builtin"> & { builtin: number };
const toRow = (r: Raw | undefined): FixtureSetRow | undefined =>
  r ? { ...r, builtin: r.builtin === 1 } : undefined;

export function getSet(db: Db, name: string): FixtureSetRow | undefined {
  return toRow(db.sqlite.prepare(`SELECT ${COLUMNS} FROM fixture_sets WHERE name = ?`).get(name) as Raw);
}

export function getSetById(db: Db, id: number): FixtureSetRow | undefined {
  return toRow(db.sqlite.prepare(`SELECT ${COLUMNS} FROM fixture_sets WHERE id = ?`).get(id) as Raw);
}

/** A set name checked, or a FixtureError that says what is wrong with it. */
export function checkSetName(name: string): string {
  const r = SetNameSchema.safeParse(name);
  if (!r.success) throw new FixtureError("bad_name", `set "${name}": ${r.error.issues[0]?.message}`);
  return r.data;
}

/** Runs `fn` in one IMMEDIATE transaction through the one write path (every fixture writer's). */
export function fixtureTransaction<T>(db: Db, fn: () => T): T {
  return writeSync(db, fn);
}

/** The set to write into, created (with no description) when missing; the seed is refused. Call inside a transaction. */
export function writableSet(db: Db, name: string): { set: FixtureSetRow; created: boolean } {
  const checked = checkSetName(name);
  const found = getSet(db, checked);
  if (found) {
    if (found.builtin)
      throw new FixtureError("read_only", `the ${found.name} set is read-only: choose another set`);
    return { set: found, created: false };
  }
  if (checked === SEED_SET)
    throw new FixtureError("read_only", "the seed set is read-only: choose another set");
  db.sqlite.prepare("INSERT INTO fixture_sets(name) VALUES (?)").run(checked);
  return { set: getSet(db, checked) as FixtureSetRow, created: true };
}

/** Creates a set with a description; a name in use is an error. */
export function createSet(db: Db, name: string, description = ""): FixtureSetRow {
  const checked = checkSetName(name);
  const d = SetDescriptionSchema.safeParse(description);
  if (!d.success) throw new FixtureError("bad_description", d.error.issues[0]?.message ?? "bad description");
  return fixtureTransaction(db, () => {
    if (getSet(db, checked) || checked === SEED_SET)
      throw new FixtureError("exists", `there is already a set named "${checked}"`);
    db.sqlite
      .prepare("INSERT INTO fixture_sets(name, description) VALUES (?, ?)")
      .run(checked, d.data.trim());
    return getSet(db, checked) as FixtureSetRow;
  });
}

export function setDescription(db: Db, name: string, description: string): FixtureSetRow {
  const d = SetDescriptionSchema.safeParse(description);
  if (!d.success) throw new FixtureError("bad_description", d.error.issues[0]?.message ?? "bad description");
  return fixtureTransaction(db, () => {
    const { set } = requireWritable(db, name);
    db.sqlite
      .prepare(
        "UPDATE fixture_sets SET description = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?",
      )
      .run(d.data.trim(), set.id);
    return getSetById(db, set.id) as FixtureSetRow;
  });
}

function requireWritable(db: Db, name: string): { set: FixtureSetRow } {
  const set = getSet(db, name);
  if (!set) throw new FixtureError("no_set", `there is no fixture set "${name}"`);
  if (set.builtin) throw new FixtureError("read_only", `the ${set.name} set is read-only`);
  return { set };
}

/** Deletes a set with its fixtures and re-runs (never the seed); worlds no fixture uses go too. */
export function deleteSet(db: Db, name: string): number {
  return fixtureTransaction(db, () => {
    const { set } = requireWritable(db, name);
    const n = db.sqlite
      .prepare("SELECT count(*) FROM fixtures WHERE set_id = ?")
      .pluck()
      .get(set.id) as number;
    db.sqlite.prepare("DELETE FROM fixture_sets WHERE id = ?").run(set.id);
    dropUnusedWorlds(db);
    return n;
  });
}

/** Deletes one fixture of a writable set (with its re-run results). */
export function deleteFixture(db: Db, name: string, identity: string): boolean {
  return fixtureTransaction(db, () => {
    const { set } = requireWritable(db, name);
    const r = db.sqlite
      .prepare("DELETE FROM fixtures WHERE set_id = ? AND identity = ?")
      .run(set.id, identity);
    if (r.changes > 0) {
      db.sqlite
        .prepare("UPDATE fixture_sets SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?")
        .run(set.id);
      dropUnusedWorlds(db);
    }
    return r.changes > 0;
  });
}

export function dropUnusedWorlds(db: Db): void {
  db.sqlite
    .prepare(
      "DELETE FROM fixture_worlds WHERE NOT EXISTS (SELECT 1 FROM fixtures f WHERE f.world_digest = digest)",
    )
    .run();
}
