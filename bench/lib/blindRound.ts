/**
 * The blind-round part of `bench:queue`: a round over the big run (every probed field of every
 * trace, two reviews per field) with 10% of the traces' timezone fields reviewed blind by two
 * reviewers through the one write path (some disagreeing), then the round's next field (a claim
 * with its lease) and the agreement between reviewers, measured.
 */
import type { openDb } from "../../db/client";
import { blindPatterns, interRaterOf } from "../../db/queries/interRater";
import { writeReviews } from "../../db/queries/reviews";
import { claimNext, createRound, getRoundByName, writeBlindReview } from "../../db/queries/rounds";
import { writeSync } from "../../db/write";
import type { Label } from "../../lib/probe/schema";
import { interRater } from "../../lib/review/interRater";
import { fmt, load } from "./util";

type Db = ReturnType<typeof openDb>;

export const BLIND_ROUND = "bench-blind";
const LABELS = ["ASK", "DRIFT", "OMIT", "INJECT"];

/** The round, and blind reviews by ann and bob of every tenth trace's timezone field (offset 5). */
export function seedBlindRound(db: Db, run: string): void {
  let t0 = performance.now();
  const { round, fields } = writeSync(db, () =>
    createRound(db, {
      name: BLIND_ROUND,
      scopeKind: "run",
      scopeValue: run,
      reviewsPerField: 2,
      createdBy: "bench",
      seed: 20261207,
    }),
  );
  console.log(
    `made round ${BLIND_ROUND}: ${fmt(fields)} fields in ${fmt((performance.now() - t0) / 1000, 1)} s  [${load()}]`,
  );
  const runId = db.sqlite.prepare("SELECT id FROM runs WHERE name = ?").pluck().get(run) as number;
  const rows = db.sqlite
    .prepare(
      "SELECT id, json_extract(labels, '$.timezone') AS label FROM traces WHERE run_id = ? AND id % 10 = 5 ORDER BY id",
    )
    .all(runId) as { id: number; label: string | null }[];
  t0 = performance.now();
  let disagree = 0;
  for (let i = 0; i < rows.length; i += 2000) {
    writeSync(db, () => {
      for (let j = i; j < Math.min(rows.length, i + 2000); j++) {
        const t = rows[j];
        const a = LABELS.includes(t.label ?? "") ? (t.label as string) : "ASK";
        // One field in seven: bob picks the next label; one in eleven: ann does.
        const b = j % 7 === 3 ? LABELS[(LABELS.indexOf(a) + 1) % LABELS.length] : a;
        const a2 = j % 11 === 5 ? LABELS[(LABELS.indexOf(a) + 2) % LABELS.length] : a;
        if (a2 !== b) disagree++;
        const now = Date.now();
        writeBlindReview(
          db,
          { roundId: round.id, traceId: t.id, field: "timezone", reviewer: "ann", label: a2 },
          now,
        );
        writeBlindReview(
          db,
          { roundId: round.id, traceId: t.id, field: "timezone", reviewer: "bob", label: b },
          now,
        );
      }
    });
  }
  const s = (performance.now() - t0) / 1000;
  console.log(
    `wrote ${fmt(rows.length * 2)} blind reviews (${fmt(rows.length)} fields, 10% of the traces, ${fmt(disagree)} disagreeing) through writeBlindReview in ${fmt(s, 1)} s (${fmt((s * 1e6) / (rows.length * 2))} µs each)  [${load()}]`,
  );
}

/** The p95 helper's inputs: claim times (ms) of `k` claims by `reviewer`, each then reviewed blind. */
export function timeClaims(db: Db, reviewer: string, k: number): number[] {
  const round = getRoundByName(db, BLIND_ROUND);
  if (!round) throw new Error(`no round ${BLIND_ROUND}`);
  const xs: number[] = [];
  for (let i = 0; i < k; i++) {
    const t0 = performance.now();
    const claim = writeSync(db, () => claimNext(db, round.id, reviewer));
    xs.push(performance.now() - t0);
    if (!claim) throw new Error(`the round has nothing left for ${reviewer}`);
    writeSync(db, () =>
      writeBlindReview(db, {
        roundId: round.id,
        traceId: claim.traceId,
        field: claim.field,
        reviewer,
        label: "ASK",
      }),
    );
  }
  return xs;
}

/** In-process cost of the agreement figures: the counts read, and the figures without the kept copy. */
export function agreementFloor(db: Db, reps: number): { read: number[]; figures: number[]; fields: number } {
  const read: number[] = [];
  const figures: number[] = [];
  let fields = 0;
  for (let i = 0; i < reps; i++) {
    let t0 = performance.now();
    const p = blindPatterns(db);
    read.push(performance.now() - t0);
    t0 = performance.now();
    // A seed of its own each time: no kept copy, every resample drawn.
    fields = interRater(p, { seed: `floor-${i}` }).fields;
    figures.push(performance.now() - t0);
  }
  interRaterOf(db);
  return { read, figures, fields };
}

/**
 * A third reviewer's blind review of a field ann and bob reviewed (as `label --blind` writes one):
 * the field's pattern changes, so the next `/agreement` works its figures out again.
 */
export function thirdBlindReview(db: Db, run: string, i: number): void {
  const runId = db.sqlite.prepare("SELECT id FROM runs WHERE name = ?").pluck().get(run) as number;
  // Spread over the doubly reviewed traces, wrapping round on a small run (`--n`).
  const candidates = db.sqlite
    .prepare("SELECT count(*) FROM traces WHERE run_id = ? AND id % 10 = 5")
    .pluck()
    .get(runId) as number;
  const traceId = db.sqlite
    .prepare("SELECT id FROM traces WHERE run_id = ? AND id % 10 = 5 ORDER BY id LIMIT 1 OFFSET ?")
    .pluck()
    .get(runId, (i * 97) % Math.max(1, candidates)) as number;
  writeSync(db, () => {
    const r = writeReviews(db, {
      traceId,
      reviewer: `third-${i}`,
      kind: "blind",
      items: [{ field: "timezone", label: LABELS[i % LABELS.length] as Label, base: null }],
    });
    if (!r.ok) throw new Error(`third review of ${traceId}: conflict`);
  });
}
