import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { currentReviews } from "../../db/queries/reviews";
import { ingestPaths, tempDb } from "../../db/testing/ingest";
import { reviewInconsistencies } from "../../db/testing/reviews";
import { projectRoot } from "../root";
import { loadDemoReviews } from "./demoReviews";

const { db, cleanup } = tempDb("demo-reviews");
afterAll(cleanup);
const demo = join(projectRoot(), "fixtures", "demo");

describe("the demo's reviews", () => {
  it("land on their traces through the write path: corrections, a confirmation, a replaced review and an undo", async () => {
    await ingestPaths(db, [join(demo, "heron-mini-2026-11-29.jsonl")]);
    expect(loadDemoReviews(db, join(demo, "reviews.json"))).toBe(8);
    const trace = (ext: string) =>
      db.sqlite
        .prepare("SELECT id, json_extract(response, '$.text') AS text, labels FROM traces WHERE ext_id = ?")
        .get(ext) as {
        id: number;
        text: string;
        labels: string;
      };
    const q = trace("sw-0002");
    expect(q.text).toBe("Which region is u_9182 in? I need that to place 09:00 correctly.");
    expect(JSON.parse(q.labels).timezone).toBe("DRIFT");
    expect(currentReviews(db, q.id).get("timezone")).toMatchObject({ label: "ASK", reviewer: "mira" });
    const replaced = currentReviews(db, trace("sw-0080").id).get("timezone");
    expect(replaced).toMatchObject({ label: "ASK", reviewer: "mira" });
    expect(replaced?.replaces).not.toBeNull();
    expect(currentReviews(db, trace("sw-0007").id).get("timezone")?.label).toBe(null);
    expect(reviewInconsistencies(db)).toEqual([]);
  });
});
