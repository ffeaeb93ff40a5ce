import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";

/**
 * A database at `path` as an older release left it: only the migrations whose tag sorts before
 * `before` (say "0010"), applied from a copy of the journal cut there (inside `scratch`). Returned
 * open, for the test to fill with the rows that release would have written; close it before
 * opening the file with `openDb`, which applies the rest.
 */
export function migratedBefore(scratch: string, path: string, before: string): Database.Database {
  const folder = mkdtempSync(join(scratch, `migrations-before-${before}-`));
  mkdirSync(join(folder, "meta"), { recursive: true });
  const src = join(import.meta.dirname, "..", "migrations");
  const journal = JSON.parse(readFileSync(join(src, "meta", "_journal.json"), "utf8"));
  journal.entries = journal.entries.filter((e: { tag: string }) => e.tag < before);
  writeFileSync(join(folder, "meta", "_journal.json"), JSON.stringify(journal));
  for (const e of journal.entries) copyFileSync(join(src, `${e.tag}.sql`), join(folder, `${e.tag}.sql`));
  const sqlite = new Database(path);
  migrate(drizzle(sqlite), { migrationsFolder: folder });
  return sqlite;
}
