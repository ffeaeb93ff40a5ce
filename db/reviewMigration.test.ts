import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "./client";
import { migratedBefore } from "./testing/migrations";

const dir = mkdtempSync(join(tmpdir(), "assumeprobe-review-migration-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A database as the release before the review loop left it: migrations 0000-0002 only. */
function oldDatabase(path: string): void {
  const sqlite = migratedBefore(dir, path, "0003");
  sqlite.exec(`
    INSERT INTO runs(id, name, model) VALUES (1, 'old', 'm');
    INSERT INTO traces(id, run_id, probe_id, probe_version, identity, hash, source, line, form, gate, labels, result, response, original)
      VALUES (7, 1, 'schedule_window', 1, x'01', x'01', 's', 1, 'trace', 'no_call', '{}', '{}', '{}', '{}'),
             (8, 1, 'schedule_window', 2, x'02', x'02', 's', 2, 'trace', 'no_call', '{}', '{}', '{}', '{}');
    INSERT INTO reviews(trace_id, field, label, reviewer, note) VALUES
      (7, 'timezone', 'ASK', 'ana', 'first'), (7, 'timezone', 'drift', 'bo', ''), (7, 'severity', 'OMIT', 'ana', '');
  `);
  sqlite.close();
}

describe("migration 0006", () => {
  it("keeps an existing database's reviews, naming each one's predecessor, and allows clears", () => {
    const path = join(dir, "old.db");
    oldDatabase(path);
    const db = openDb(path);
    try {
      const rows = db.sqlite
        .prepare("SELECT id, trace_id, field, label, reviewer, note, replaces FROM reviews ORDER BY id")
        .all();
      expect(rows).toEqual([
        {
          id: 1,
          trace_id: 7,
          field: "timezone",
          label: "ASK",
          reviewer: "ana",
          note: "first",
          replaces: null,
        },
        { id: 2, trace_id: 7, field: "timezone", label: "DRIFT", reviewer: "bo", note: "", replaces: 1 },
        { id: 3, trace_id: 7, field: "severity", label: "OMIT", reviewer: "ana", note: "", replaces: null },
      ]);
      db.sqlite
        .prepare(
          "INSERT INTO reviews(trace_id, field, label, reviewer, replaces) VALUES (7, 'timezone', NULL, 'cy', 2)",
        )
        .run();
      expect(() =>
        db.sqlite
          .prepare(
            "INSERT INTO reviews(trace_id, field, label, reviewer) VALUES (7, 'timezone', 'MAYBE', 'cy')",
          )
          .run(),
      ).toThrow(/CHECK/);
      // New ids continue after the kept ones; deleting the trace deletes its reviews.
      expect(db.sqlite.prepare("SELECT max(id) FROM reviews").pluck().get()).toBe(4);
      const idx = db.sqlite
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'reviews'")
        .pluck()
        .all();
      expect(idx).toContain("reviews_trace");
      db.sqlite.prepare("DELETE FROM traces WHERE id = 7").run();
      expect(db.sqlite.prepare("SELECT count(*) FROM reviews").pluck().get()).toBe(0);
    } finally {
      db.sqlite.close();
    }
  });

  it("records which probe version scored each probe's traces of a run, for old traces and every new one", () => {
    const path = join(dir, "old2.db");
    oldDatabase(path);
    const db = openDb(path);
    try {
      const rows = () =>
        db.sqlite
          .prepare(
            "SELECT run_id, probe_id, probe_version, lexicon_version FROM run_scoring ORDER BY probe_version",
          )
          .all();
      expect(rows()).toEqual([
        { run_id: 1, probe_id: "schedule_window", probe_version: 1, lexicon_version: 0 },
        { run_id: 1, probe_id: "schedule_window", probe_version: 2, lexicon_version: 0 },
      ]);
      db.sqlite
        .prepare(
          `INSERT INTO traces(run_id, probe_id, probe_version, identity, hash, source, line, form, gate, labels, result, response, original)
           VALUES (1, 'schedule_window', 3, x'03', x'03', 's', 3, 'trace', 'no_call', '{}', '{}', '{}', '{}')`,
        )
        .run();
      expect(rows()).toHaveLength(3);
      db.sqlite.prepare("DELETE FROM runs WHERE id = 1").run();
      expect(rows()).toEqual([]);
    } finally {
      db.sqlite.close();
    }
  });
});
