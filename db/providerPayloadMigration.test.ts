import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "./client";

const dir = mkdtempSync(join(tmpdir(), "assumeprobe-payload-migration-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A database as the release before the provider payloads left it (migrations before 0010). */
function oldDatabase(path: string): void {
  const folder = join(dir, "old-migrations");
  mkdirSync(join(folder, "meta"), { recursive: true });
  const src = join(import.meta.dirname, "migrations");
  const journal = JSON.parse(readFileSync(join(src, "meta", "_journal.json"), "utf8"));
  journal.entries = journal.entries.filter((e: { tag: string }) => e.tag < "0010");
  writeFileSync(join(folder, "meta", "_journal.json"), JSON.stringify(journal));
  for (const e of journal.entries) copyFileSync(join(src, `${e.tag}.sql`), join(folder, `${e.tag}.sql`));
  const sqlite = new Database(path);
  migrate(drizzle(sqlite), { migrationsFolder: folder });
  sqlite.exec(`
    INSERT INTO runs(id, name, model) VALUES (1, 'gemini-nightly', 'm'), (2, 'openai-nightly', 'm'), (3, 'emptied', 'm');
    INSERT INTO tag_names(id, name) VALUES (1, 'f:unrecognized_payload'), (2, 'f:fenced'), (3, 'l:timezone=DRIFT');
    INSERT INTO run_counts(run_id, probe_id, tag_id, n) VALUES
      (1, 'schedule_window', 1, 4), (1, 'book_flight', 1, 2), (1, 'schedule_window', 3, 4),
      (2, 'schedule_window', 2, 1), (2, 'schedule_window', 3, 9),
      (3, 'schedule_window', 1, 0);
  `);
  sqlite.close();
}

describe("migration 0010", () => {
  it("queues one re-score of each run holding a trace flagged unrecognized_payload, and no other", () => {
    const path = join(dir, "old.db");
    oldDatabase(path);
    const db = openDb(path);
    try {
      expect(db.sqlite.prepare("SELECT run_id, reason, status FROM rescores ORDER BY id").all()).toEqual([
        { run_id: 1, reason: "provider-payloads", status: "pending" },
      ]);
    } finally {
      db.sqlite.close();
    }
  });

  it("queues nothing on a new database", () => {
    const db = openDb(join(dir, "new.db"));
    try {
      expect(db.sqlite.prepare("SELECT count(*) FROM rescores").pluck().get()).toBe(0);
    } finally {
      db.sqlite.close();
    }
  });
});
