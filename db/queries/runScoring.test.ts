import { afterAll, describe, expect, it } from "vitest";
import { ingestText, tempDb, traceLine } from "../testing/ingest";
import { recordRunScoring, runScoring } from "./runScoring";

const { db, cleanup } = tempDb("run-scoring");
afterAll(cleanup);

describe("run scoring versions", () => {
  it("are recorded for every ingested trace, and a re-score replaces a probe's rows", async () => {
    await ingestText(db, "s.jsonl", `${[traceLine({ id: "a" }), traceLine({ id: "b" })].join("\n")}\n`, {
      run: "s",
    });
    const runId = db.sqlite.prepare("SELECT id FROM runs WHERE name = 's'").pluck().get() as number;
    expect(runScoring(db, runId)).toEqual([
      { probeId: "schedule_window", probeVersion: 1, lexiconVersion: 0 },
    ]);
    recordRunScoring(db, runId, { probeId: "schedule_window", probeVersion: 3, lexiconVersion: 2 });
    expect(runScoring(db, runId)).toEqual([
      { probeId: "schedule_window", probeVersion: 3, lexiconVersion: 2 },
    ]);
  });
});
