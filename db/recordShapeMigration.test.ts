import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "./client";
import { migratedBefore } from "./testing/migrations";

const dir = mkdtempSync(join(tmpdir(), "assumeprobe-shape-migration-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EMPTY = JSON.stringify({ text: null, tool_calls: [], fenced: false });
const ASKED = JSON.stringify({ text: "Which timezone?", tool_calls: [], fenced: false });
/** A Langfuse trace export: its `trace` is no seed trace. */
const LANGFUSE = JSON.stringify({
  trace: { id: "t-1", name: "agent", input: { q: "book it" }, output: { content: "Booked." } },
  observations: [{ id: "o-1", traceId: "t-1", type: "GENERATION" }],
});

/** A database as the release before record shapes were told by their fields (migrations before 0015). */
function oldDatabase(path: string): void {
  const sqlite = migratedBefore(dir, path, "0015");
  sqlite.exec(`INSERT INTO runs(id, name, model) VALUES
    (1, 'langfuse', 'm'), (2, 'seed', 'm'), (3, 'empty-response', 'm'), (4, 'ours', 'm'), (5, 'bom', 'm'),
    (6, 'not-json', 'm')`);
  const insert = sqlite.prepare(
    `INSERT INTO traces(run_id, probe_id, probe_version, identity, hash, source, line, form, gate, labels, result, response, original)
     VALUES (?, 'schedule_window', 1, randomblob(16), x'01', 's', 1, ?, 'no_call', '{"timezone":"DRIFT"}', '{}', ?, ?)`,
  );
  // Misread: a Langfuse export as the seed runner's {label, trace}, twice in run 1.
  insert.run(1, "seed_runner", EMPTY, Buffer.from(LANGFUSE));
  insert.run(1, "seed_runner", EMPTY, Buffer.from(LANGFUSE));
  // Read right: the seed runner's traces (an empty answer among them) and a bare seed trace.
  insert.run(
    2,
    "seed_runner",
    ASKED,
    Buffer.from(JSON.stringify({ label: "ASK", trace: { text: "Which timezone?" } })),
  );
  insert.run(
    2,
    "seed_runner",
    EMPTY,
    Buffer.from(JSON.stringify({ label: "OMIT", trace: { text: null, tool_call: null } })),
  );
  insert.run(2, "seed_trace", EMPTY, Buffer.from(JSON.stringify({ text: null })));
  // Misread: a `response` object holding none of text, tool_call, tool_calls (a raw beside it).
  insert.run(
    3,
    "trace",
    EMPTY,
    Buffer.from(JSON.stringify({ response: { status: 200 }, raw: { choices: [] } })),
  );
  // Read right: our records, an empty answer and a raw payload.
  insert.run(4, "trace", EMPTY, Buffer.from(JSON.stringify({ response: { text: null, tool_calls: [] } })));
  insert.run(4, "trace", EMPTY, Buffer.from(JSON.stringify({ raw: { candidates: [] } })));
  insert.run(4, "payload", EMPTY, Buffer.from(JSON.stringify({ choices: [], trace: { id: "x" } })));
  // Misread, with a byte-order mark before the record.
  insert.run(5, "seed_runner", EMPTY, Buffer.from(`\uFEFF${LANGFUSE}`));
  // An original that is not valid UTF-8 JSON text: the migration reads past it.
  insert.run(6, "seed_runner", EMPTY, Buffer.from([0x7b, 0xff, 0xfe]));
  sqlite.close();
}

describe("migration 0015", () => {
  it("queues one re-score of each run holding a record misread by one key name, and no other", () => {
    const path = join(dir, "old.db");
    oldDatabase(path);
    const db = openDb(path);
    try {
      expect(db.sqlite.prepare("SELECT run_id, reason, status FROM rescores ORDER BY run_id").all()).toEqual([
        { run_id: 1, reason: "record-shapes", status: "pending" },
        { run_id: 3, reason: "record-shapes", status: "pending" },
        { run_id: 5, reason: "record-shapes", status: "pending" },
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
