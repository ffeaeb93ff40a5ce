import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeReviews } from "@/db/queries/reviews";
import { loadReviewRun } from "@/db/queries/reviewTestKit";
import { writeSync } from "@/db/write";
import { tempDb } from "@/lib/ingest/testIngest";
import { reviewView } from "./reviewView";

// The trace page's review panel reads the human label as blind rounds decide it.

const { db, cleanup } = tempDb("review-view");
afterAll(cleanup);
let trace = 0;
beforeAll(async () => {
  trace = (await loadReviewRun(db)).get("tokyo") as number; // imported timezone: inject
});

describe("reviewView", () => {
  it("a disputed field has no human label on the trace page, not even its imported one", () => {
    const fields = { timezone: { label: "INJECT" }, severity: { label: "OMIT" } };
    expect(reviewView(db, trace, fields, { timezone: "inject" }).fields[0].human?.label).toBe("INJECT");
    for (const [reviewer, label] of [
      ["ana", "ASK"],
      ["bo", "DRIFT"],
    ] as const)
      writeSync(db, () =>
        writeReviews(db, {
          traceId: trace,
          reviewer,
          kind: "blind",
          items: [{ field: "timezone", label, base: null }],
        }),
      );
    const v = reviewView(db, trace, fields, { timezone: "inject" });
    expect(v.fields[0].human).toBeNull();
    expect(v.history).toHaveLength(2);
  });
});
