import { afterAll, describe, expect, it } from "vitest";
import { ingestText, tempDb, traceLine } from "../testing/ingest";
import { saveLexicon } from "./lexicon";
import { runScoringView, staleRuns } from "./runScoringView";

const { db, cleanup } = tempDb("run-scoring-view");
afterAll(cleanup);

const runId = (name: string) =>
  db.sqlite.prepare("SELECT id FROM runs WHERE name = ?").pluck().get(name) as number;

describe("stale runs", () => {
  it("are the runs whose traces the current configuration would score otherwise, for every run and one probe", async () => {
    const asks = (id: string) =>
      traceLine({ id, response: { text: "Which region should it be in?", tool_calls: [] } });
    await ingestText(db, "a.jsonl", `${asks("a1")}\n`, { run: "a" });
    await ingestText(db, "b.jsonl", `${asks("b1")}\n`, { run: "b" });
    expect(staleRuns(db)).toEqual([]);
    saveLexicon(db, { timezone: { terms: ["region"], rule: "anywhere" } }, { by: "ana" });
    expect(staleRuns(db).map((r) => r.name)).toEqual(["a", "b"]);
    expect(staleRuns(db, "schedule_window").map((r) => r.name)).toEqual(["a", "b"]);
    expect(staleRuns(db, "book_slot")).toEqual([]);
    // The run page's view agrees with the list, and says what changed.
    const view = runScoringView(db, runId("a"));
    expect(view.stale).toBe(true);
    expect(view.probes[0].newer).toMatch(/lexicon v1/);
  });
});
