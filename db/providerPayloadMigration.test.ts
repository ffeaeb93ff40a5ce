import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "./client";
import { migratedBefore } from "./testing/migrations";

const dir = mkdtempSync(join(tmpdir(), "assumeprobe-payload-migration-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A database as the release before the provider payloads left it (migrations before 0010). */
function oldDatabase(path: string): void {
  const sqlite = migratedBefore(dir, path, "0010");
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
