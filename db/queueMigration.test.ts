import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "./client";
import { nextQueueItem, queueProgress, resolveScope } from "./queries/queue";
import { backfillAll, backfillPending } from "./queries/tagBackfill";
import { migratedBefore } from "./testing/migrations";

const dir = mkdtempSync(join(tmpdir(), "assumeprobe-queue-migration-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const score = (label: string) =>
  JSON.stringify({
    fields: { timezone: { label, flags: [] } },
    flags: [],
    gate: { verdict: "no_call", unknown: [], conflict: [], next: null },
  });
const response = (text: string) => JSON.stringify({ text, tool_calls: [], fenced: false });

/** A database as the release before the queue left it (migrations before 0007), with two runs of traces. */
function oldDatabase(path: string): void {
  const sqlite = migratedBefore(dir, path, "0007");
  const insert = sqlite.prepare(
    `INSERT INTO traces(id, run_id, probe_id, probe_version, identity, hash, source, line, form, gate, labels, result, response, human, original)
     VALUES (?, ?, 'schedule_window', 1, ?, x'01', 's', ?, 'trace', 'no_call', ?, ?, ?, ?, '{}')`,
  );
  sqlite.exec("INSERT INTO runs(id, name, model) VALUES (1, 'old-a', 'm'), (2, 'old-b', 'm')");
  insert.run(
    7,
    1,
    Buffer.from([7]),
    1,
    '{"timezone":"DRIFT"}',
    score("DRIFT"),
    response("Which region?"),
    null,
  );
  insert.run(
    8,
    1,
    Buffer.from([8]),
    2,
    '{"timezone":"ASK"}',
    score("ASK"),
    response("Which timezone?"),
    null,
  );
  insert.run(
    9,
    2,
    Buffer.from([9]),
    1,
    '{"timezone":"OMIT"}',
    score("OMIT"),
    response(""),
    '{"timezone":"ASK"}',
  );
  sqlite.close();
}

describe("migration 0007", () => {
  it("lists every run with traces for tagging, and setup's backfill puts their fields in the queue and the agreement counts", () => {
    const path = join(dir, "old.db");
    oldDatabase(path);
    const db = openDb(path);
    try {
      expect(
        db.sqlite.prepare("SELECT run_id, after_id, last_id FROM tag_backfill ORDER BY run_id").all(),
      ).toEqual([
        { run_id: 1, after_id: 0, last_id: 8 },
        { run_id: 2, after_id: 0, last_id: 9 },
      ]);
      const idx = db.sqlite
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'run_counts'")
        .pluck()
        .all();
      expect(idx).toContain("run_counts_tag");
      const all = resolveScope(db, {});
      expect(nextQueueItem(db, all)).toBe(null);
      backfillAll(db);
      expect(backfillPending(db)).toBe(false);
      expect(nextQueueItem(db, all)).toMatchObject({ traceId: 7, rule: "drift_question" });
      expect(queueProgress(db, all)).toMatchObject({ total: 2, waitingTotal: 2 });
      const pairs = db.sqlite
        .prepare(
          "SELECT tn.name, rc.n FROM run_counts rc JOIN tag_names tn ON tn.id = rc.tag_id WHERE tn.name LIKE 'hp:%'",
        )
        .all();
      expect(pairs).toEqual([{ name: "hp:timezone=OMIT/ASK", n: 1 }]);
      // Deleting a run drops its row, done or not.
      db.sqlite.exec("INSERT INTO tag_backfill(run_id, last_id) VALUES (1, 8)");
      db.sqlite.prepare("DELETE FROM runs WHERE id = 1").run();
      expect(backfillPending(db)).toBe(false);
    } finally {
      db.sqlite.close();
    }
  });
});
