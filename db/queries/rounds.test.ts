import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDb } from "../../lib/ingest/testIngest";
import { LEASE_MS } from "../../lib/review/rounds";
import { writeSync } from "../write";
import { currentReviews } from "./reviews";
import { loadReviewRun, reviewInconsistencies } from "./reviewTestKit";
import {
  type Claim,
  claimNext,
  createRound,
  RoundError,
  roundCounts,
  writeAdjudication,
  writeBlindReview,
} from "./rounds";

const { db, dir, cleanup } = tempDb("rounds");
afterAll(cleanup);
beforeAll(async () => {
  await loadReviewRun(db, "r1");
  await loadReviewRun(db, "r2");
  await loadReviewRun(db, "r3");
  await loadReviewRun(db, "r4");
  await loadReviewRun(db, "race");
});
const T0 = Date.parse("2026-01-01T00:00:00Z");
let roundNo = 0;
const round = (n = 2, run = "r1", participants: string[] | null = null, seed = 42) =>
  writeSync(db, () =>
    createRound(db, {
      name: `round ${++roundNo}`,
      scopeKind: "run",
      scopeValue: run,
      reviewsPerField: n,
      participants,
      createdBy: "lead",
      seed,
    }),
  );
const claim = (roundId: number, reviewer: string, now = T0) =>
  writeSync(db, () => claimNext(db, roundId, reviewer, now));
const review = (c: Claim, reviewer: string, label = "ASK", now = T0) =>
  writeSync(db, () =>
    writeBlindReview(db, { roundId: c.roundId, traceId: c.traceId, field: c.field, reviewer, label }, now),
  );
/** Claims and reviews until the round has nothing left for the reviewer. */
const drain = (roundId: number, reviewer: string, label = "ASK") => {
  const got: string[] = [];
  for (let c = claim(roundId, reviewer); c; c = claim(roundId, reviewer)) {
    got.push(`${c.traceId}/${c.field}`);
    review(c, reviewer, label);
  }
  return got;
};
const perField = (roundId: number) =>
  db.sqlite
    .prepare(
      "SELECT trace_id || '/' || field AS k, count(*) AS n FROM reviews WHERE kind = 'blind' AND round_id = ? GROUP BY trace_id, field",
    )
    .all(roundId) as { k: string; n: number }[];

describe("rounds", () => {
  it("a round holds every probed field of its scope, in a seeded order that is not the ingest order", () => {
    const a = round(2, "r1", null, 7);
    const fields = db.sqlite
      .prepare("SELECT trace_id AS t, field FROM round_fields WHERE round_id = ? ORDER BY pos")
      .all(a.round.id) as { t: number; field: string }[];
    expect(a.fields).toBe(24);
    expect(fields).toHaveLength(24);
    const traces = fields.map((f) => f.t);
    expect(traces).not.toEqual([...traces].sort((x, y) => x - y));
    // The same seed gives the same order over another run's traces, shifted by their ids.
    const b = round(2, "r1", null, 7);
    const again = db.sqlite
      .prepare("SELECT trace_id AS t, field FROM round_fields WHERE round_id = ? ORDER BY pos")
      .all(b.round.id);
    expect(again).toEqual(fields);
  });

  it("never offers a field twice to one reviewer", () => {
    const { round: r } = round(2);
    const got = drain(r.id, "ana");
    expect(got).toHaveLength(24);
    expect(new Set(got).size).toBe(24);
    expect(claim(r.id, "ana")).toBeUndefined();
  });

  it("never past N: three reviewers, N = 2, every field exactly twice", () => {
    const { round: r } = round(2);
    const counts = new Map<string, number>();
    for (let i = 0; i < 30; i++)
      for (const who of ["ana", "bo", "cy"]) {
        const c = claim(r.id, who);
        if (!c) continue;
        review(c, who);
      }
    for (const { k, n } of perField(r.id)) counts.set(k, n);
    expect(counts.size).toBe(24);
    expect([...counts.values()].every((n) => n === 2)).toBe(true);
    for (const who of ["ana", "bo", "cy"]) expect(claim(r.id, who)).toBeUndefined();
    expect(roundCounts(db, r.id)).toMatchObject({ fields: 24, agreed: 24 });
  });

  it("counts live leases against N, and a lapsed lease frees its place for another reviewer", () => {
    const { round: r } = round(2, "r2");
    // ana and bo each hold a lease on the first field; cy may not take it.
    const a = claim(r.id, "ana") as Claim;
    const b = claim(r.id, "bo") as Claim;
    expect(b.pos).toBe(a.pos);
    const c = claim(r.id, "cy") as Claim;
    expect(c.pos).not.toBe(a.pos);
    // The same reviewer asking again gets the lease they hold.
    expect(claim(r.id, "ana")?.pos).toBe(a.pos);
    // After the lease time, ana's lease lapses and dee gets the field.
    const later = T0 + LEASE_MS + 1000;
    review(b, "bo", "ASK", later - 2000);
    const d = writeSync(db, () => claimNext(db, r.id, "dee", later)) as Claim;
    expect(d.pos).toBe(a.pos);
    // ana cannot write it now: it is full.
    expect(() => review(a, "ana", "ASK", later)).toThrow(RoundError);
  });

  it("never offers again a field whose lease lapsed in a reviewer's hands", () => {
    const { round: r } = round(2, "r2");
    const first = claim(r.id, "eve") as Claim;
    const later = T0 + LEASE_MS + 1000;
    const got: number[] = [];
    for (let c = claim(r.id, "eve", later); c; c = claim(r.id, "eve", later)) {
      got.push(c.pos);
      review(c, "eve", "ASK", later);
    }
    expect(got).toHaveLength(23);
    expect(got).not.toContain(first.pos);
  });

  it("refuses a reviewer outside the participants and a second blind review", () => {
    const { round: r } = round(2, "r3", ["ana", "bo"]);
    expect(() => claim(r.id, "zed")).toThrow(/not among the participants/);
    const c = claim(r.id, "ana") as Claim;
    review(c, "ana");
    expect(() => review(c, "ana")).toThrow(/already reviewed/);
  });

  it("two reviewers who disagree dispute the field; the adjudication settles it", () => {
    const { round: r } = round(2, "r4", ["ana", "bo"]);
    const a = claim(r.id, "ana") as Claim;
    review(a, "ana", "ASK");
    const b = claim(r.id, "bo") as Claim;
    expect(b.pos).toBe(a.pos);
    const res = review(b, "bo", "DRIFT");
    expect(res.state).toBe("disputed");
    expect(currentReviews(db, a.traceId).get(a.field)?.disputed).toBe(true);
    const adj = writeSync(db, () =>
      writeAdjudication(db, {
        roundId: r.id,
        traceId: a.traceId,
        field: a.field,
        reviewer: "lead",
        label: "DRIFT",
        note: "no question",
      }),
    );
    expect(adj.state).toBe("adjudicated");
    expect(currentReviews(db, a.traceId).get(a.field)?.label).toBe("DRIFT");
    expect(reviewInconsistencies(db)).toEqual([]);
  });
});

describe("racing reviewers", () => {
  const child = (roundId: number, reviewer: string) =>
    new Promise<{ reviewed: string[]; refused: number }>((resolve, reject) => {
      const p = spawn(
        process.execPath,
        [
          "--import",
          "tsx",
          join(import.meta.dirname, "roundsRaceChild.ts"),
          join(dir, "test.db"),
          String(roundId),
          reviewer,
        ],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      let out = "";
      let err = "";
      p.stdout.on("data", (d) => {
        out += d;
      });
      p.stderr.on("data", (d) => {
        err += d;
      });
      p.on("close", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(err))));
    });

  it("processes of two reviewers (one of them twice) racing through a round: never past N, never twice to one", async () => {
    const { round: r } = writeSync(db, () =>
      createRound(db, { name: "race", scopeKind: "run", scopeValue: "race", createdBy: "lead" }),
    );
    const results = await Promise.all([child(r.id, "ana"), child(r.id, "ana"), child(r.id, "bo")]);
    const ana = [...results[0].reviewed, ...results[1].reviewed];
    expect(new Set(ana).size).toBe(ana.length);
    const fields = roundCounts(db, r.id).fields;
    expect(ana).toHaveLength(fields);
    expect(results[2].reviewed).toHaveLength(fields);
    for (const { n } of perField(r.id)) expect(n).toBe(2);
  }, 120_000);
});
