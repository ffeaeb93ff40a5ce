import type { Db } from "../client";
import { forgetOnRollback } from "../write";

/** Tag names interned as small integers, cached per connection. */
const caches = new WeakMap<Db["sqlite"], Map<string, number>>();

function cacheFor(db: Db): Map<string, number> {
  let c = caches.get(db.sqlite);
  if (!c) {
    c = new Map();
    for (const r of db.sqlite.prepare("SELECT id, name FROM tag_names").all() as {
      id: number;
      name: string;
    }[]) {
      c.set(r.name, r.id);
    }
    caches.set(db.sqlite, c);
  }
  return c;
}

/** The id of a tag, creating it when new (call inside the writing transaction). */
export function tagId(db: Db, name: string): number {
  const c = cacheFor(db);
  const hit = c.get(name);
  if (hit !== undefined) return hit;
  db.sqlite.prepare("INSERT OR IGNORE INTO tag_names(name) VALUES (?)").run(name);
  const row = db.sqlite.prepare("SELECT id FROM tag_names WHERE name = ?").get(name) as { id: number };
  c.set(name, row.id);
  return row.id;
}

/** The id of an existing tag, or undefined (reads never create tags). */
export function findTagId(db: Db, name: string): number | undefined {
  const c = cacheFor(db);
  const hit = c.get(name);
  if (hit !== undefined) return hit;
  const row = db.sqlite.prepare("SELECT id FROM tag_names WHERE name = ?").get(name) as
    | { id: number }
    | undefined;
  if (row) c.set(name, row.id);
  return row?.id;
}

/** Tag names by id, for turning counts back into names. */
export function tagNamesById(db: Db): Map<number, string> {
  const out = new Map<number, string>();
  for (const r of db.sqlite.prepare("SELECT id, name FROM tag_names").all() as {
    id: number;
    name: string;
  }[]) {
    out.set(r.id, r.name);
  }
  return out;
}

/** Forgets cached ids (after a rolled-back transaction may have created some). */
export function resetTagCache(db: Db): void {
  caches.delete(db.sqlite);
}

// A write that rolls back takes the tag ids it created with it: every rollback through the one
// write path forgets them, whoever wrote.
forgetOnRollback(resetTagCache);
