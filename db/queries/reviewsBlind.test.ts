import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDb } from "../../lib/ingest/testIngest";
import { writeSync } from "../write";
import { selectAsOf } from "./bulkSelection";
import {
  currentReviews,
  currentReviewsOf,
  humanLabelsOf,
  type ReviewSubmission,
  writeReviews,
} from "./reviews";
import { loadReviewRun, reviewInconsistencies } from "./reviewTestKit";

// Blind reviews through the one review write path: one chain per reviewer, and a disputed field
// has no human label (its tags say so) until an adjudication settles it.

const { db, cleanup } = tempDb("reviews-blind");
afterAll(cleanup);
let ids = new Map<string, number>();
beforeAll(async () => {
  ids = await loadReviewRun(db);
});
const id = (ext: string) => ids.get(ext) as number;
const write = (s: ReviewSubmission) => writeSync(db, () => writeReviews(db, s));
const tagNames = (traceId: number, prefix: string) =>
  db.sqlite
    .prepare(
      `SELECT n.name FROM trace_tags x JOIN tag_names n ON n.id = x.tag_id WHERE x.trace_id = ? AND n.name LIKE ? ORDER BY n.name`,
    )
    .pluck()
    .all(traceId, `${prefix}%`) as string[];
const imported = (traceId: number) =>
  JSON.parse(
    db.sqlite.prepare("SELECT human FROM traces WHERE id = ?").pluck().get(traceId) as string,
  ) as Record<string, string>;

describe("blind reviews", () => {
  it("two reviewers never conflict; differing labels dispute the field, dropping even the imported label", () => {
    const t = id("tokyo"); // imported timezone: inject
    expect(tagNames(t, "hl:timezone")).toEqual(["hl:timezone=INJECT"]);
    const a = write({
      traceId: t,
      reviewer: "ana",
      kind: "blind",
      items: [{ field: "timezone", label: "ASK", base: null }],
    });
    expect(a.ok).toBe(true);
    expect(tagNames(t, "hl:timezone")).toEqual(["hl:timezone=ASK"]);
    // bo saw no review of his own: no conflict with ana's.
    const b = write({
      traceId: t,
      reviewer: "bo",
      kind: "blind",
      items: [{ field: "timezone", label: "DRIFT", base: null }],
    });
    expect(b.ok).toBe(true);
    const cur = currentReviews(db, t).get("timezone");
    expect(cur).toMatchObject({ state: "disputed", disputed: true, label: null });
    expect(humanLabelsOf(["timezone"], currentReviews(db, t), imported(t)).timezone).toBeUndefined();
    expect(currentReviewsOf(db, [t]).get(t)?.get("timezone")?.disputed).toBe(true);
    expect(tagNames(t, "hl:timezone")).toEqual([]);
    expect(tagNames(t, "rv:timezone")).toEqual(["rv:timezone=reviewed"]);
    expect(reviewInconsistencies(db)).toEqual([]);
  });

  it("a bulk selection reads the disputed field as having no human label", () => {
    const t = id("tokyo");
    const newest = db.sqlite.prepare("SELECT max(id) FROM reviews").pluck().get() as number;
    const [sel] = selectAsOf(db, {}, "timezone", newest, t);
    expect(sel.asOf?.disputed).toBe(true);
    expect(sel.current?.disputed).toBe(true);
  });

  it("a blind review names its reviewer's own chain: a stale own base conflicts", () => {
    const t = id("tokyo");
    const r = write({
      traceId: t,
      reviewer: "ana",
      kind: "blind",
      items: [{ field: "timezone", label: "OMIT", base: null }],
    });
    expect(r.ok).toBe(false);
  });

  it("an ordinary review does not settle a disputed field; an adjudication does", () => {
    const t = id("tokyo");
    const cur = currentReviews(db, t).get("timezone");
    const o = write({
      traceId: t,
      reviewer: "cy",
      items: [{ field: "timezone", label: "ASK", base: cur?.id ?? null }],
    });
    expect(o.ok).toBe(true);
    expect(tagNames(t, "hl:timezone")).toEqual([]);
    const cur2 = currentReviews(db, t).get("timezone");
    const adj = write({
      traceId: t,
      reviewer: "dee",
      kind: "adjudication",
      note: "the reply asks for the region",
      items: [{ field: "timezone", label: "ASK", base: cur2?.id ?? null }],
    });
    expect(adj.ok).toBe(true);
    expect(currentReviews(db, t).get("timezone")).toMatchObject({ state: "adjudicated", label: "ASK" });
    expect(tagNames(t, "hl:timezone")).toEqual(["hl:timezone=ASK"]);
    expect(reviewInconsistencies(db)).toEqual([]);
  });

  it("two reviewers that agree settle the field with their label", () => {
    const t = id("x2"); // imported timezone: OMIT
    for (const reviewer of ["ana", "bo"])
      write({
        traceId: t,
        reviewer,
        kind: "blind",
        items: [{ field: "timezone", label: "DRIFT", base: null }],
      });
    expect(currentReviews(db, t).get("timezone")).toMatchObject({ state: "agreed", label: "DRIFT" });
    expect(tagNames(t, "hl:timezone")).toEqual(["hl:timezone=DRIFT"]);
    expect(reviewInconsistencies(db)).toEqual([]);
  });
});
