import { afterAll, describe, expect, it } from "vitest";
import { writeReviews } from "../queries/reviews";
import { whatIf } from "../queries/whatIf";
import { tempDb } from "../testing/ingest";
import { driftRun } from "../testing/jobs";
import { writeSync } from "../write";
import { CALLS } from "./calls";
import { CallRefused, CallTimedOut, callOffThread } from "./offThread";

const { db, cleanup } = tempDb("calls");
afterAll(cleanup);

describe("calls off the request thread", () => {
  it("answer a what-if and the suggestions as the functions do on this thread, and refuse what the user must fix", async () => {
    const runId = await driftRun(db, "calls", 12);
    const ids = db.sqlite
      .prepare("SELECT id FROM traces WHERE run_id = ? ORDER BY id")
      .pluck()
      .all(runId) as number[];
    // Humans say the questions without the word asked: the suggestions learn "located".
    for (const traceId of ids.slice(0, 6))
      writeSync(db, () =>
        writeReviews(db, {
          traceId,
          reviewer: "mira",
          items: [{ field: "timezone", label: "ASK", base: null }],
        }),
      );
    const draft = {
      kind: "lexicon" as const,
      entries: { timezone: { terms: ["locat*"], rule: "anywhere" as const } },
    };
    const off = await callOffThread(db, "whatIf", { draft });
    expect(off.traces).toEqual(whatIf(db, draft).traces);
    const request = { probe: null, runs: ["calls"], sets: [], top: 5 };
    const suggested = await callOffThread(db, "suggest", request);
    const here = CALLS.suggest(db, request);
    expect(suggested.suggestions.length).toBeGreaterThan(0);
    expect(suggested.suggestions.map((s) => s.change)).toEqual(here.suggestions.map((s) => s.change));
    await expect(callOffThread(db, "suggest", { ...request, probe: "no-such-probe" })).rejects.toThrow(
      CallRefused,
    );
    await expect(callOffThread(db, "suggest", { ...request, probe: "no-such-probe" })).rejects.toThrow(
      "unknown probe: no-such-probe",
    );
  }, 60_000);

  it("gives a call up after its time, and the next call gets a new thread", async () => {
    const draft = {
      kind: "lexicon" as const,
      entries: { timezone: { terms: ["region"], rule: "anywhere" as const } },
    };
    await expect(callOffThread(db, "whatIf", { draft }, { timeoutMs: 0 })).rejects.toThrow(
      "given up after 0 s",
    );
    // The page says it as it is (a narrower scope may answer in time), not "try again".
    await expect(callOffThread(db, "whatIf", { draft }, { timeoutMs: 0 })).rejects.toThrow(CallTimedOut);
    expect((await callOffThread(db, "whatIf", { draft })).traces).toEqual(whatIf(db, draft).traces);
  }, 60_000);
});
