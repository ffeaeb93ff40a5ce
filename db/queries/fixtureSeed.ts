import { SEED_DESCRIPTION, SEED_REVIEWER, seedFixtures } from "../../lib/fixtures/seed";
import { SEED_SET } from "../../lib/fixtures/setName";
import { fixtureIdentity } from "../../lib/fixtures/world";
import { builtinProbes, DEFAULT_PROBE_ID } from "../../lib/probe/builtin";
import type { Db } from "../client";
import { dropUnusedWorlds, type FixtureSetRow, fixtureTransaction, getSet } from "./fixtureSets";
import { writeFixture } from "./fixtures";

/**
 * Keeps the built-in `seed` set: the first article's four fixtures over the built-in
 * schedule_window world (a changed built-in world replaces them). Cheap when nothing changed.
 */
export function syncSeedSet(db: Db): void {
  const probe = builtinProbes().get(DEFAULT_PROBE_ID);
  if (!probe) return;
  const wanted = seedFixtures(probe);
  const ids = wanted.map((f) => fixtureIdentity(f.world, f.response, f.field));
  const set = getSet(db, SEED_SET);
  if (set) {
    const have = db.sqlite
      .prepare("SELECT identity FROM fixtures WHERE set_id = ? ORDER BY id")
      .pluck()
      .all(set.id) as string[];
    if (have.length === ids.length && have.every((x, i) => x === ids[i]) && set.builtin) return;
  }
  fixtureTransaction(db, () => {
    let s = getSet(db, SEED_SET);
    if (!s) {
      db.sqlite
        .prepare("INSERT INTO fixture_sets(name, description, builtin) VALUES (?, ?, 1)")
        .run(SEED_SET, SEED_DESCRIPTION);
      s = getSet(db, SEED_SET) as FixtureSetRow;
    } else
      db.sqlite
        .prepare("UPDATE fixture_sets SET builtin = 1, description = ? WHERE id = ?")
        .run(SEED_DESCRIPTION, s.id);
    const keep = JSON.stringify(ids);
    db.sqlite
      .prepare("DELETE FROM fixtures WHERE set_id = ? AND identity NOT IN (SELECT value FROM json_each(?))")
      .run(s.id, keep);
    for (const f of wanted)
      writeFixture(db, s.id, {
        world: f.world,
        response: f.response,
        field: f.field,
        expected: f.expected,
        reviewer: SEED_REVIEWER,
        note: f.note,
        source: null,
        sourceTraceId: null,
      });
    dropUnusedWorlds(db);
  });
}
