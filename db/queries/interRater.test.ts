import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReviewPattern } from "../../lib/review/interRater";
import { tempDb } from "../testing/ingest";
import { loadReviewRun } from "../testing/reviews";
import { writeSync } from "../write";
import { blindPatterns, hasBlindReviews, interRaterOf } from "./interRater";

const { db, cleanup } = tempDb("inter-rater");
afterAll(cleanup);

let a = new Map<string, number>();
let b = new Map<string, number>();
let roundId = 0;
beforeAll(async () => {
  a = await loadReviewRun(db, "run-a");
  b = await loadReviewRun(db, "run-b");
  db.sqlite.prepare("UPDATE runs SET model = 'tern' WHERE name = 'run-b'").run();
  roundId = Number(
    db.sqlite
      .prepare(
        "INSERT INTO review_rounds (name, scope_kind, scope_value, created_by) VALUES ('r1', 'run', 'run-a', 'ann')",
      )
      .run().lastInsertRowid,
  );
});

/** A review row as the write path stores it (kind 'blind' with its round, or an ordinary one). */
function review(
  traceId: number,
  field: string,
  reviewer: string,
  label: string | null,
  kind = "blind",
  round: number | null = roundId,
) {
  writeSync(db, () => {
    db.sqlite
      .prepare(
        "INSERT INTO reviews (trace_id, field, label, reviewer, kind, round_id) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run(traceId, field, label, reviewer, kind, kind === "blind" ? round : null);
  });
}

/** The patterns the slow way: each reviewer's first blind review per field, clears left out. */
function recount(where = "1 = 1", ...args: unknown[]): ReviewPattern[] {
  const rows = db.sqlite
    .prepare(
      `SELECT f.trace_id AS t, f.field AS field, f.reviewer AS reviewer, f.label AS label FROM (
         SELECT trace_id, field, reviewer, label, min(id) FROM reviews WHERE kind = 'blind' GROUP BY trace_id, field, reviewer
       ) f JOIN traces tr ON tr.id = f.trace_id JOIN runs r ON r.id = tr.run_id
       WHERE f.label IS NOT NULL AND ${where} ORDER BY f.trace_id, f.field, f.reviewer`,
    )
    .all(...args) as { t: number; field: string; reviewer: string; label: string }[];
  const units = new Map<string, [string, string][]>();
  for (const r of rows) {
    const k = `${r.t}/${r.field}`;
    units.set(k, [...(units.get(k) ?? []), [r.reviewer, r.label]]);
  }
  const counts = new Map<string, number>();
  for (const u of units.values()) {
    if (u.length < 2) continue;
    const k = JSON.stringify(u);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts]
    .sort(([x], [y]) => (x < y ? -1 : 1))
    .map(([k, n]) => ({
      reviews: (JSON.parse(k) as [string, string][]).map(([reviewer, label]) => ({ reviewer, label })),
      n,
    }));
}

describe("the kept label-pattern counts of blind reviews", () => {
  it("is empty before any blind review, and ordinary reviews never count", () => {
    expect(hasBlindReviews(db)).toBe(false);
    review(a.get("ask") as number, "timezone", "ann", "ASK", "review");
    review(a.get("ask") as number, "timezone", "bob", "DRIFT", "review");
    expect(blindPatterns(db)).toEqual([]);
    expect(interRaterOf(db).fields).toBe(0);
  });

  it("counts each reviewer's first blind review of a field, as a recount from the reviews does", () => {
    const ids = [...a.values()];
    ids.forEach((t, i) => {
      review(t, "timezone", "bob", i % 3 === 0 ? "DRIFT" : "ASK");
      review(t, "timezone", "ann", "ASK");
      if (i % 4 === 0) review(t, "timezone", "cy", "OMIT");
    });
    // Later blind reviews of the same reviewer do not count; a first clear counts for nobody.
    review(ids[0], "timezone", "ann", "INJECT");
    review(ids[1], "severity", "ann", null);
    review(ids[1], "severity", "ann", "ASK");
    review(ids[1], "severity", "bob", "ASK");
    review(ids[2], "severity", "ann", "ASK");
    // One label alone is no unit.
    review(ids[3], "severity", "bob", "ASK");
    for (const t of [...b.values()].slice(0, 5)) {
      review(t, "timezone", "ann", "DRIFT", "blind", null);
      review(t, "timezone", "dee", "DRIFT", "blind", null);
    }
    expect(hasBlindReviews(db)).toBe(true);
    expect(blindPatterns(db)).toEqual(recount());
    const all = interRaterOf(db, {}, { replicates: 0 });
    expect(all.fields).toBe(12 + 5);
    const annBob = all.pairs.find((p) => p.a === "ann" && p.b === "bob");
    expect(annBob?.n).toBe(12);
    expect(annBob?.agree).toBe(8);
  });

  it("narrows to a run, a model, a probe, a field and a round", () => {
    expect(blindPatterns(db, { run: "run-a" })).toEqual(recount("r.name = ?", "run-a"));
    expect(blindPatterns(db, { model: "tern" })).toEqual(recount("r.model = ?", "tern"));
    expect(blindPatterns(db, { field: "severity" })).toEqual(recount("f.field = ?", "severity"));
    expect(blindPatterns(db, { probe: "schedule_window" })).toEqual(recount());
    expect(blindPatterns(db, { probes: ["deploy_service"] })).toEqual([]);
    expect(blindPatterns(db, { probe: "nope" })).toEqual([]);
    expect(blindPatterns(db, { round: "r1" })).toEqual(recount("r.name = ?", "run-a"));
    expect(blindPatterns(db, { round: "no such round" })).toEqual([]);
  });

  it("follows deleted reviews, traces and runs", () => {
    const t = a.get("drift") as number;
    writeSync(db, () => {
      db.sqlite
        .prepare("DELETE FROM reviews WHERE trace_id = ? AND reviewer = 'ann' AND kind = 'blind'")
        .run(t);
    });
    expect(blindPatterns(db)).toEqual(recount());
    writeSync(db, () => {
      db.sqlite.prepare("DELETE FROM traces WHERE id = ?").run(a.get("omit"));
    });
    expect(blindPatterns(db)).toEqual(recount());
    writeSync(db, () => {
      db.sqlite.prepare("DELETE FROM runs WHERE name = 'run-b'").run();
    });
    expect(blindPatterns(db)).toEqual(recount());
    expect(blindPatterns(db, { model: "tern" })).toEqual([]);
  });
});
