import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDb } from "../../lib/ingest/testIngest";
import { writeSync } from "../write";
import { writeRoundToSet } from "./fixturesRound";
import { loadReviewRun } from "./reviewTestKit";
import { type Claim, claimNext, createRound, writeAdjudication, writeBlindReview } from "./rounds";

const { db, cleanup } = tempDb("fixtures-round");
afterAll(cleanup);
let roundId = 0;
let disputed: Claim;
beforeAll(async () => {
  await loadReviewRun(db, "r");
  roundId = writeSync(db, () =>
    createRound(db, { name: "r1", scopeKind: "run", scopeValue: "r", createdBy: "lead", seed: 3 }),
  ).round.id;
  const claim = (who: string) => writeSync(db, () => claimNext(db, roundId, who)) as Claim;
  const review = (c: Claim, who: string, label: string) =>
    writeSync(db, () =>
      writeBlindReview(db, { roundId, traceId: c.traceId, field: c.field, reviewer: who, label }),
    );
  // ana labels every field ASK; bo labels three: the first DRIFT (disputed), two ASK (agreed).
  for (let c = claim("ana"); c; c = writeSync(db, () => claimNext(db, roundId, "ana")) as Claim)
    review(c, "ana", "ASK");
  disputed = claim("bo");
  review(disputed, "bo", "DRIFT");
  for (let i = 0; i < 2; i++) review(claim("bo"), "bo", "ASK");
});
const fixtures = (set: string) =>
  db.sqlite
    .prepare(
      "SELECT expected, settled FROM fixtures WHERE set_id = (SELECT id FROM fixture_sets WHERE name = ?) ORDER BY id",
    )
    .all(set) as { expected: string; settled: string }[];

describe("fixtures from a round", () => {
  it("takes agreed and adjudicated fields by default, and says how many it skipped as disputed or single", () => {
    const r = writeSync(db, () => writeRoundToSet(db, roundId, "settled", "lead"));
    expect(r).toMatchObject({ added: 2, skippedDisputed: 1, skippedSingle: 21, skippedOpen: 0 });
    expect(fixtures("settled")).toEqual([
      { expected: "ASK", settled: "agreed" },
      { expected: "ASK", settled: "agreed" },
    ]);
  });

  it("an adjudication settles the disputed field: the next add takes it as adjudicated", () => {
    writeSync(db, () =>
      writeAdjudication(db, {
        roundId,
        traceId: disputed.traceId,
        field: disputed.field,
        reviewer: "lead",
        label: "DRIFT",
      }),
    );
    const r = writeSync(db, () => writeRoundToSet(db, roundId, "settled", "lead"));
    expect(r).toMatchObject({ added: 1, unchanged: 2, skippedDisputed: 0, skippedSingle: 21 });
    expect(fixtures("settled")[2]).toEqual({ expected: "DRIFT", settled: "adjudicated" });
  });

  it("takes single fields only when asked, recorded as single", () => {
    const r = writeSync(db, () => writeRoundToSet(db, roundId, "all", "lead", { single: true }));
    // Traces with the same response and world are one case: 24 fields, fewer fixtures.
    expect(r.skippedSingle).toBe(0);
    expect(r.added + r.relabelled + r.unchanged).toBe(24);
    expect(fixtures("all").filter((f) => f.settled === "single").length).toBeGreaterThan(15);
  });
});
