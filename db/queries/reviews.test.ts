import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tag } from "../../lib/ingest/tags";
import { LABELS, type Label } from "../../lib/probe/schema";
import { tempDb } from "../testing/ingest";
import { loadReviewRun, reviewInconsistencies } from "../testing/reviews";
import { writeSync } from "../write";
import {
  currentReviewLabelsOf,
  currentReviews,
  currentReviewsOf,
  getReview,
  humanLabelsOf,
  ReviewError,
  type ReviewSubmission,
  reviewHistory,
  writeReviews,
} from "./reviews";
import { getRunSummary } from "./runs";

const { db, cleanup } = tempDb("reviews");
afterAll(cleanup);

let ids = new Map<string, number>();
beforeAll(async () => {
  ids = await loadReviewRun(db);
});
const id = (ext: string) => ids.get(ext) as number;

const tagNames = (traceId: number, prefix: string) =>
  db.sqlite
    .prepare(
      `SELECT n.name FROM trace_tags x JOIN tag_names n ON n.id = x.tag_id WHERE x.trace_id = ? AND n.name LIKE ? ORDER BY n.name`,
    )
    .pluck()
    .all(traceId, `${prefix}%`) as string[];
const reviewCount = () => db.sqlite.prepare("SELECT count(*) FROM reviews").pluck().get() as number;
const base = (traceId: number, field: string) => currentReviews(db, traceId).get(field)?.id ?? null;

describe("writeReviews", () => {
  it("appends a review naming none replaced, and the human-label tags and counts follow it", () => {
    const t = id("drift-q");
    const before = getRunSummary(db, "reviews")?.fields.find((f) => f.field === "timezone");
    const r = writeSync(db, () =>
      writeReviews(db, {
        traceId: t,
        reviewer: " ana ",
        note: "asks for the region",
        items: [{ field: "timezone", label: "ASK", base: null }],
      }),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.reviews).toHaveLength(1);
    expect(r.reviews[0]).toMatchObject({
      traceId: t,
      field: "timezone",
      label: "ASK",
      reviewer: "ana",
      note: "asks for the region",
      replaces: null,
    });
    expect(r.reviews[0].createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(tagNames(t, "hl:")).toEqual(["hl:*=ASK", "hl:timezone=ASK"]);
    expect(tagNames(t, "h:")).toEqual(["h:*=disagree", "h:timezone=disagree"]);
    expect(tagNames(t, "rv:")).toEqual([
      "rv:*=corrects",
      "rv:*=reviewed",
      "rv:timezone=corrects",
      "rv:timezone=reviewed",
    ]);
    const after = getRunSummary(db, "reviews")?.fields.find((f) => f.field === "timezone");
    expect(after?.human.disagree).toBe((before?.human.disagree ?? 0) + 1);
    expect(after?.reviews).toEqual({ reviewed: 1, corrects: 1, confirms: 0 });
    expect(reviewInconsistencies(db)).toEqual([]);
  });

  it("on a stale base writes nothing and returns the current review: who, label, when, note", () => {
    const t = id("drift-q");
    const n = reviewCount();
    const tags = tagNames(t, "");
    const r = writeSync(db, () =>
      writeReviews(db, {
        traceId: t,
        reviewer: "bo",
        items: [{ field: "timezone", label: "DRIFT", base: null }],
      }),
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.conflicts).toHaveLength(1);
    expect(r.conflicts[0].field).toBe("timezone");
    expect(r.conflicts[0].current).toMatchObject({
      reviewer: "ana",
      label: "ASK",
      note: "asks for the region",
    });
    expect(r.conflicts[0].current?.createdAt).toBeTruthy();
    expect(reviewCount()).toBe(n);
    expect(tagNames(t, "")).toEqual(tags);
  });

  it("lets the second reviewer resubmit over the review they were shown", () => {
    const t = id("drift-q");
    const seen = base(t, "timezone");
    const r = writeSync(db, () =>
      writeReviews(db, {
        traceId: t,
        reviewer: "bo",
        items: [{ field: "timezone", label: "DRIFT", base: seen }],
      }),
    );
    expect(r.ok && r.reviews[0].replaces).toBe(seen);
    // DRIFT is ours: the review now confirms.
    expect(tagNames(t, "rv:timezone")).toEqual(["rv:timezone=confirms", "rv:timezone=reviewed"]);
    expect(tagNames(t, "h:timezone")).toEqual(["h:timezone=agree"]);
    expect(reviewInconsistencies(db)).toEqual([]);
  });

  it("checks every item before writing any: one stale base among two writes nothing", () => {
    const t = id("drift-q");
    const n = reviewCount();
    const r = writeSync(db, () =>
      writeReviews(db, {
        traceId: t,
        reviewer: "cy",
        items: [
          { field: "severity", label: "ASK", base: null },
          { field: "timezone", label: "ASK", base: null },
        ],
      }),
    );
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.conflicts.map((c) => c.field)).toEqual(["timezone"]);
    expect(reviewCount()).toBe(n);
    expect(currentReviews(db, t).has("severity")).toBe(false);
  });

  it("a base that names a review when the field has none is a conflict with no current review", () => {
    const r = writeSync(db, () =>
      writeReviews(db, {
        traceId: id("omit"),
        reviewer: "ana",
        items: [{ field: "timezone", label: "ASK", base: 999_999 }],
      }),
    );
    expect(r).toEqual({ ok: false, conflicts: [{ field: "timezone", current: null }] });
  });

  it("a clear falls back to the imported label; the field is no longer reviewed", () => {
    const t = id("tokyo"); // imported timezone=inject; ours INJECT
    writeSync(db, () =>
      writeReviews(db, {
        traceId: t,
        reviewer: "ana",
        items: [{ field: "timezone", label: "COPY", base: null }],
      }),
    );
    expect(tagNames(t, "hl:timezone")).toEqual(["hl:timezone=COPY"]);
    const r = writeSync(db, () =>
      writeReviews(db, {
        traceId: t,
        reviewer: "ana",
        items: [{ field: "timezone", label: null, base: base(t, "timezone") }],
      }),
    );
    expect(r.ok && r.reviews[0].label).toBe(null);
    expect(tagNames(t, "hl:timezone")).toEqual(["hl:timezone=INJECT"]);
    expect(tagNames(t, "h:timezone")).toEqual(["h:timezone=agree"]);
    expect(tagNames(t, "rv:timezone")).toEqual([]);
    // The other field's imported label was never touched.
    expect(tagNames(t, "hl:severity")).toEqual(["hl:severity=OMIT"]);
    const cur = currentReviewsOf(db, [t]).get(t);
    expect(humanLabelsOf(["timezone", "severity"], cur, { timezone: "inject", severity: "OMIT" })).toEqual({
      timezone: { label: "INJECT", source: "imported" },
      severity: { label: "OMIT", source: "imported" },
    });
    expect(currentReviewLabelsOf(db, [t, id("omit")])).toEqual(new Map([[t, { timezone: null }]]));
    expect(reviewInconsistencies(db)).toEqual([]);
  });

  it("undo writes the label of the review it replaced (none for a first review), as a new review", () => {
    const t = id("utc");
    const first = writeSync(db, () =>
      writeReviews(db, {
        traceId: t,
        reviewer: "ana",
        items: [{ field: "timezone", label: "COPY", base: null }],
      }),
    );
    const second = writeSync(db, () =>
      writeReviews(db, {
        traceId: t,
        reviewer: "bo",
        items: [{ field: "timezone", label: "DRIFT", base: base(t, "timezone") }],
      }),
    );
    if (!first.ok || !second.ok) throw new Error("setup failed");
    const undo = writeSync(db, () =>
      writeReviews(db, {
        traceId: t,
        reviewer: "bo",
        items: [{ field: "timezone", label: null, undo: true, base: second.reviews[0].id }],
      }),
    );
    expect(undo.ok && undo.reviews[0]).toMatchObject({ label: "COPY", replaces: second.reviews[0].id });
    const undoFirst = writeSync(db, () =>
      writeReviews(db, {
        traceId: t,
        reviewer: "ana",
        items: [{ field: "timezone", label: null, undo: true, base: base(t, "timezone") }],
      }),
    );
    // The undo replaced DRIFT: undoing it writes DRIFT back.
    expect(undoFirst.ok && undoFirst.reviews[0].label).toBe("DRIFT");
    const t2 = id("x1");
    const only = writeSync(db, () =>
      writeReviews(db, {
        traceId: t2,
        reviewer: "ana",
        items: [{ field: "timezone", label: "ASK", base: null }],
      }),
    );
    if (!only.ok) throw new Error("setup failed");
    const back = writeSync(db, () =>
      writeReviews(db, {
        traceId: t2,
        reviewer: "ana",
        items: [{ field: "timezone", label: "ASK", undo: true, base: only.reviews[0].id }],
      }),
    );
    expect(back.ok && back.reviews[0].label).toBe(null);
    expect(tagNames(t2, "rv:")).toEqual([]);
    expect(reviewHistory(db, t2).map((r) => r.label)).toEqual([null, "ASK"]);
    expect(getReview(db, only.reviews[0].id)?.label).toBe("ASK");
    expect(reviewInconsistencies(db)).toEqual([]);
  });

  it("an undo of a stale review is a conflict like any other", () => {
    const t = id("utc");
    const stale = reviewHistory(db, t)[1].id;
    const r = writeSync(db, () =>
      writeReviews(db, {
        traceId: t,
        reviewer: "cy",
        items: [{ field: "timezone", label: null, undo: true, base: stale }],
      }),
    );
    expect(r.ok).toBe(false);
  });

  it("refuses, with what was wrong, submissions that cannot be written, and writes nothing", () => {
    const n = reviewCount();
    const t = id("omit");
    const cases: [ReviewSubmission, string][] = [
      [
        { traceId: 987654, reviewer: "a", items: [{ field: "timezone", label: "ASK", base: null }] },
        "no_trace",
      ],
      [{ traceId: t, reviewer: "a", items: [] }, "no_items"],
      [{ traceId: t, reviewer: "a", items: [{ field: "zone", label: "ASK", base: null }] }, "unknown_field"],
      [
        {
          traceId: t,
          reviewer: "a",
          items: [
            { field: "timezone", label: "ASK", base: null },
            { field: "timezone", label: "OMIT", base: null },
          ],
        },
        "duplicate_field",
      ],
      [
        { traceId: t, reviewer: "a", items: [{ field: "timezone", label: "MAYBE" as Label, base: null }] },
        "bad_label",
      ],
      [
        { traceId: t, reviewer: "  ", items: [{ field: "timezone", label: "ASK", base: null }] },
        "bad_reviewer",
      ],
      [
        {
          traceId: t,
          reviewer: "a",
          note: "x".repeat(2001),
          items: [{ field: "timezone", label: "ASK", base: null }],
        },
        "bad_note",
      ],
      [
        { traceId: t, reviewer: "a", items: [{ field: "timezone", label: null, undo: true, base: null }] },
        "nothing_to_undo",
      ],
    ];
    for (const [s, code] of cases) {
      let err: unknown;
      try {
        writeSync(db, () => writeReviews(db, s));
      } catch (e) {
        err = e;
      }
      expect(err, code).toBeInstanceOf(ReviewError);
      expect((err as ReviewError).code).toBe(code);
    }
    expect(reviewCount()).toBe(n);
    expect(() =>
      writeSync(db, () =>
        writeReviews(db, { traceId: t, reviewer: "a", items: [{ field: "zone", label: "ASK", base: null }] }),
      ),
    ).toThrow(/no probed field "zone" \(its fields: timezone, severity\)/);
  });

  it("keeps a trace whose tag rows predate signatures unsigned (-1), still consistent", () => {
    const t = id("copy");
    db.sqlite.prepare("UPDATE trace_tags SET sig = -1 WHERE trace_id = ?").run(t);
    writeSync(db, () =>
      writeReviews(db, {
        traceId: t,
        reviewer: "ana",
        items: [{ field: "timezone", label: "INJECT", base: null }],
      }),
    );
    expect(reviewInconsistencies(db, new Set([t]))).toEqual([]);
  });
});

describe("any sequence of reviews", () => {
  it("leaves tags, signatures and counts equal to a brute-force recount, and never loses a review", () => {
    const traces = ["ask", "drift-q", "drift", "omit", "tokyo", "h-ask", "rec", "both", "x2"].map(id);
    const unsigned = new Set([id("copy")]);
    type Step = {
      trace: number;
      field: "timezone" | "severity";
      op: "label" | "clear" | "undo";
      label: Label;
      stale: boolean;
    };
    const step = fc.record({
      trace: fc.constantFrom(...traces),
      field: fc.constantFrom("timezone" as const, "severity" as const),
      op: fc.constantFrom("label" as const, "label" as const, "clear" as const, "undo" as const),
      label: fc.constantFrom(...LABELS),
      stale: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 25 }), (steps: Step[]) => {
        for (const s of steps) {
          const cur = currentReviews(db, s.trace).get(s.field);
          // A stale base: the review before the current one (or none when there is one).
          const prior = cur ? (cur.replaces ?? null) : 12345678;
          const b = s.stale ? prior : (cur?.id ?? null);
          const n = reviewCount();
          if (s.op === "undo" && !s.stale && !cur) continue;
          const r = writeSync(db, () =>
            writeReviews(db, {
              traceId: s.trace,
              reviewer: "prop",
              items: [
                { field: s.field, label: s.op === "label" ? s.label : null, base: b, undo: s.op === "undo" },
              ],
            }),
          );
          if (b === (cur?.id ?? null)) {
            expect(r.ok).toBe(true);
            expect(reviewCount()).toBe(n + 1);
            const now = currentReviews(db, s.trace).get(s.field);
            expect(now?.replaces).toBe(cur?.id ?? null);
            if (s.op === "label") expect(now?.label).toBe(s.label);
            if (s.op === "clear") expect(now?.label).toBe(null);
            if (s.op === "undo" && cur)
              expect(now?.label).toBe(cur.replaces ? getReview(db, cur.replaces)?.label : null);
          } else {
            expect(r.ok).toBe(false);
            expect(reviewCount()).toBe(n);
          }
        }
        expect(reviewInconsistencies(db, unsigned)).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });
});

describe("the one write path", () => {
  it("writeReviews refuses to run outside a write transaction, and writes nothing", () => {
    const n = reviewCount();
    expect(() =>
      writeReviews(db, {
        traceId: id("ask"),
        reviewer: "loose",
        items: [{ field: "severity", label: "ASK", base: base(id("ask"), "severity") }],
      }),
    ).toThrow(/inside write\(\) or writeSync\(\)/);
    expect(reviewCount()).toBe(n);
  });

  it("a review rolled back with its transaction leaves no tag id behind for the next review to reuse", async () => {
    // A database of its own, where no review has made this label's tags yet.
    const fresh = tempDb("reviews-rollback");
    try {
      const own = await loadReviewRun(fresh.db);
      const f = fresh.db;
      const t = own.get("ask") as number;
      const names = (prefix: string) =>
        f.sqlite
          .prepare(
            "SELECT n.name FROM trace_tags x JOIN tag_names n ON n.id = x.tag_id WHERE x.trace_id = ? AND n.name LIKE ?",
          )
          .pluck()
          .all(t, `${prefix}%`) as string[];
      const tagRows = () => f.sqlite.prepare("SELECT count(*) FROM tag_names").pluck().get() as number;
      const label: Label = "ERROR";
      const want = tag.humanLabel("severity", label);
      expect(f.sqlite.prepare("SELECT count(*) FROM tag_names WHERE name = ?").pluck().get(want)).toBe(0);
      const before = tagRows();
      expect(() =>
        writeSync(f, () => {
          const r = writeReviews(f, {
            traceId: t,
            reviewer: "gone",
            items: [{ field: "severity", label, base: null }],
          });
          expect(r.ok).toBe(true);
          throw new Error("the rest of the transaction failed");
        }),
      ).toThrow("the rest of the transaction failed");
      expect(tagRows()).toBe(before);
      // Another name takes the rolled-back row's id; the review must not use that id for its tag.
      writeSync(f, () => f.sqlite.prepare("INSERT INTO tag_names(name) VALUES ('x:someone-else')").run());
      const r = writeSync(f, () =>
        writeReviews(f, { traceId: t, reviewer: "kept", items: [{ field: "severity", label, base: null }] }),
      );
      expect(r.ok).toBe(true);
      expect(names("")).toContain(want);
      expect(names("x:")).toEqual([]);
      expect(reviewInconsistencies(f)).toEqual([]);
    } finally {
      fresh.cleanup();
    }
  });
});
