import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../client";
import { fixtureDb } from "../testing/fixtures";
import { PREFIX_MATCHES, resolveFixturePrefix } from "./fixtureList";
import { getSet } from "./fixtureSets";

let db: Db;
let cleanup: () => void;
let setId: number;
let identities: string[];

/** A copy of a fixture under another identity (the twin a long shared prefix needs). */
function twin(of: string, identity: string): void {
  const cols = (db.sqlite.prepare("PRAGMA table_info(fixtures)").all() as { name: string }[])
    .map((c) => c.name)
    .filter((c) => c !== "id" && c !== "identity");
  db.sqlite
    .prepare(
      `INSERT INTO fixtures (identity, ${cols.join(", ")}) SELECT ?, ${cols.join(", ")} FROM fixtures WHERE identity = ?`,
    )
    .run(identity, of);
}

beforeAll(async () => {
  ({ db, cleanup } = await fixtureDb("fixture-prefix"));
  setId = (getSet(db, "seed") as { id: number }).id;
  identities = db.sqlite
    .prepare("SELECT identity FROM fixtures WHERE set_id = ?")
    .pluck()
    .all(setId) as string[];
  expect(identities.length).toBeGreaterThan(1);
});
afterAll(() => cleanup());

describe("a fixture named by a prefix of its identity", () => {
  it("resolves the 12 characters pages show, any shorter unique prefix, any letter case, and the whole", () => {
    for (const id of identities) {
      for (const k of [64, 12, 8])
        expect(resolveFixturePrefix(db, setId, id.slice(0, k))).toEqual({ kind: "one", identity: id });
      expect(resolveFixturePrefix(db, setId, id.slice(0, 12).toUpperCase())).toEqual({
        kind: "one",
        identity: id,
      });
    }
  });

  it("lists the matches of an ambiguous prefix, and resolves each once it is long enough", () => {
    const [a] = identities;
    // Shares a's first 12 characters and differs at the 13th.
    const b = `${a.slice(0, 12)}${a[12] === "0" ? "1" : "0"}${"0".repeat(51)}`;
    twin(a, b);
    expect(resolveFixturePrefix(db, setId, a.slice(0, 12))).toEqual({
      kind: "many",
      identities: [a, b].sort(),
      more: false,
    });
    expect(resolveFixturePrefix(db, setId, a.slice(0, 13))).toEqual({ kind: "one", identity: a });
    expect(resolveFixturePrefix(db, setId, b.slice(0, 13))).toEqual({ kind: "one", identity: b });
  });

  it("lists at most PREFIX_MATCHES and says there are more", () => {
    const [, c] = identities;
    for (let i = 0; i < PREFIX_MATCHES + 2; i++)
      twin(c, `${c.slice(0, 6)}${i.toString(16).padStart(58, "e")}`);
    const r = resolveFixturePrefix(db, setId, c.slice(0, 6));
    expect(r.kind).toBe("many");
    if (r.kind === "many") {
      expect(r.identities).toHaveLength(PREFIX_MATCHES);
      expect(r.more).toBe(true);
      expect(r.identities.every((x) => x.startsWith(c.slice(0, 6)))).toBe(true);
    }
  });

  it.each(["", "xyz", "0".repeat(65), "%", "g1"])("names nothing for %j, nor for another set", (p) => {
    expect(resolveFixturePrefix(db, setId, p)).toEqual({ kind: "none" });
  });

  it("finds nothing of one set in another", () => {
    expect(resolveFixturePrefix(db, setId + 1000, identities[0].slice(0, 12))).toEqual({ kind: "none" });
  });
});
