import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Label } from "../../lib/probe/schema";
import { guardOf, guardWords, needsConfirmation } from "../../lib/tuning/guard";
import type { Db } from "../client";
import { fixtureDb } from "../testing/fixtures";
import { ingestText, traceLine } from "../testing/ingest";
import { writeSync } from "../write";
import { addTraceFields } from "./fixtures";
import { writeReviews } from "./reviews";
import { saveGuard, whatIf } from "./whatIf";

let db: Db;
let ids: Map<string, number>;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, ids, cleanup } = await fixtureDb("what-if-guard"));
});
afterEach(() => cleanup());
const id = (ext: string) => ids.get(ext) as number;

const review = (ext: string, field: string, label: Label) => {
  const r = writeSync(db, () =>
    writeReviews(db, { traceId: id(ext), reviewer: "ana", items: [{ field, label, base: null }] }),
  );
  expect(r.ok).toBe(true);
};

/** "Done." is the text of the trace `drift`: a `*` term "done" moves its every field to ASK. */
const DONE = { kind: "lexicon" as const, entries: { "*": { terms: ["done"], rule: "anywhere" as const } } };

describe("the save guard", () => {
  it("a `*` change moves every field of every probe: the what-if reads them all", () => {
    const r = whatIf(db, DONE);
    expect(r.fields).toEqual(["*"]);
    const moved = r.traces.fields.map((f) => f.field).sort();
    expect(moved).toEqual(["severity", "timezone"]);
  });

  it("guards a move away from a field's current review, and names it", () => {
    expect(needsConfirmation(saveGuard(db, DONE))).toBe(false);
    review("drift", "timezone", "DRIFT");
    const r = whatIf(db, DONE);
    expect(r.traces.reviewedAway).toBe(1);
    expect(r.traces.reviewed).toEqual([
      { trace: id("drift"), field: "timezone", from: "DRIFT", to: "ASK", review: "DRIFT" },
    ]);
    const g = saveGuard(db, DONE);
    expect(g).toEqual({ seedBroken: 0, fixturesBroken: 0, reviewedAway: 1 });
    expect(needsConfirmation(g)).toBe(true);
    expect(guardWords(g)).toBe("1 reviewed field away from their review");
  });

  it("guards a fixture moved away from its expected label, in any set", () => {
    addTraceFields(db, "regressions", "ana", [
      { traceId: id("drift"), field: "timezone", expected: "DRIFT" },
    ]);
    const g = guardOf(whatIf(db, DONE));
    expect(g).toMatchObject({ seedBroken: 0, fixturesBroken: 1 });
    expect(guardWords(g)).toContain("1 fixture away from their expected label");
  });

  it("shows a move away from an imported label without guarding it", async () => {
    await ingestText(
      db,
      "imported.jsonl",
      `${traceLine({ id: "imp", human: { timezone: "DRIFT" }, response: { text: "All done.", tool_calls: [] } })}\n`,
      { run: "imported" },
    );
    const r = whatIf(db, DONE);
    expect(r.traces.importedAway).toBe(1);
    expect(r.traces.reviewedAway).toBe(0);
    expect(needsConfirmation(guardOf(r))).toBe(false);
  });
});
