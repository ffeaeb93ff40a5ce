import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseTraceFilter } from "../../lib/traceFilter";
import { ingestText, tempDb, traceLine } from "../testing/ingest";
import { expectConsistent } from "../testing/rescore";
import { pendingRescores } from "./rescore/jobs";
import { runPendingRescores } from "./rescore/run";
import { listTraces } from "./traceList";

// A trace an older version misread by one key name (a Langfuse export's `trace` read as the seed
// runner's): what migration 0015 queues and the next setup's re-score reads again.

const { db, cleanup } = tempDb("shape-rescore");
afterAll(cleanup);

const LANGFUSE = JSON.stringify({
  trace: { id: "t-1", name: "agent", input: { q: "book 9am" }, output: { content: "Booked." } },
  observations: [{ id: "o-1", traceId: "t-1", type: "GENERATION" }],
});
const MIGRATION = readFileSync(
  join(import.meta.dirname, "..", "migrations", "0015_record_shapes.sql"),
  "utf8",
);
const runId = (name: string) =>
  db.sqlite.prepare("SELECT id FROM runs WHERE name = ?").pluck().get(name) as number;
const flagged = (run: string) =>
  listTraces(db, runId(run), parseTraceFilter({ flag: "unrecognized_payload" }), "timezone", 50).rows.map(
    (r) => r.extId,
  );
const resultOf = (id: string) =>
  JSON.parse(db.sqlite.prepare("SELECT result FROM traces WHERE ext_id = ?").pluck().get(id) as string);

describe("a trace misread by one key name, after the upgrade", () => {
  it("is queued by the migration and flagged unrecognized_payload by the re-score; its neighbours stay", async () => {
    // Stored as an older version stored the Langfuse export: the seed runner's form, an empty answer.
    const text = `${JSON.stringify({ id: "langfuse", trace: { text: null } })}\n${traceLine({ id: "ours" }, { timezone: "UTC" })}\n${JSON.stringify({ id: "asked", label: "ASK", trace: { text: null, tool_call: null } })}\n`;
    expect(await ingestText(db, "mixed.jsonl", text)).toMatchObject({ ingested: 3, rejected: 0 });
    db.sqlite
      .prepare("UPDATE traces SET original = ?, original_block = NULL WHERE ext_id = 'langfuse'")
      .run(Buffer.from(LANGFUSE));
    expect(resultOf("langfuse").flags).toEqual([]);
    expect(flagged("mixed")).toEqual([]);
    const before = resultOf("ours");

    db.sqlite.exec(MIGRATION);
    expect(pendingRescores(db)).toHaveLength(1);
    const [report] = runPendingRescores(db);
    expect(report).toMatchObject({
      reason: "record-shapes",
      status: "done",
      scanned: 3,
      changed: 1,
      skipped: 0,
    });

    expect(resultOf("langfuse").flags).toEqual(["unrecognized_payload"]);
    expect(flagged("mixed")).toEqual(["langfuse"]);
    expect(resultOf("ours")).toEqual(before);
    expectConsistent(db);
    // Nothing is left pending.
    expect(runPendingRescores(db)).toEqual([]);
  });
});
