import { afterAll, describe, expect, it } from "vitest";
import { ingestText, tempDb, traceLine } from "../testing/ingest";

const { db, cleanup } = tempDb("recorded-labels");
afterAll(cleanup);

const recordedOf = (run: string) =>
  (
    db.sqlite
      .prepare(
        "SELECT t.line, t.recorded FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = ? ORDER BY t.line",
      )
      .all(run) as { line: number; recorded: string | null }[]
  ).map((r) => [r.line, r.recorded === null ? null : JSON.parse(r.recorded)]);

const recordedTags = (run: string) =>
  db.sqlite
    .prepare(
      `SELECT DISTINCT tn.name FROM trace_tags tt JOIN tag_names tn ON tn.id = tt.tag_id
       JOIN traces t ON t.id = tt.trace_id JOIN runs r ON r.id = t.run_id WHERE r.name = ? AND tn.name LIKE 'rec:%'`,
    )
    .pluck()
    .all(run) as string[];

describe("a recorded label outside the vocabulary", () => {
  it("is ignored and listed as a warning with its line; labels in any letter case stay", async () => {
    const lines = [
      traceLine({ id: "a", run: "rec", label: "ASKED" }),
      traceLine({ id: "b", run: "rec", label: "ask" }),
      traceLine({ id: "c", run: "rec", label: "INJECT" }),
      traceLine({ id: "d", run: "rec", label: "" }),
      traceLine({ id: "e", run: "rec" }),
    ];
    const s = await ingestText(db, "labels.jsonl", `${lines.join("\n")}\n`);
    expect([s.ingested, s.rejected]).toEqual([5, 0]);
    expect(s.warnings).toEqual([
      {
        file: "labels.jsonl",
        line: 1,
        reason:
          'recorded label "ASKED" of timezone is not one of ASK, OMIT, COPY, INJECT, DRIFT, ERROR: ignored',
      },
      { file: "labels.jsonl", line: 4, reason: expect.stringMatching(/^recorded label "" of timezone/) },
    ]);
    expect(recordedOf("rec")).toEqual([
      [1, {}],
      [2, { timezone: "ask" }],
      [3, { timezone: "INJECT" }],
      [4, {}],
      [5, null],
    ]);
    // No trace carries a recorded tag for a label it does not have.
    const tags = recordedTags("rec");
    expect(tags.length).toBeGreaterThan(0);
    const counted = db.sqlite
      .prepare(
        `SELECT count(DISTINCT tt.trace_id) FROM trace_tags tt JOIN tag_names tn ON tn.id = tt.tag_id
         JOIN traces t ON t.id = tt.trace_id JOIN runs r ON r.id = t.run_id WHERE r.name = 'rec' AND tn.name LIKE 'rec:%'`,
      )
      .pluck()
      .get();
    expect(counted).toBe(2);
  });

  it("is warned of again on a re-ingest (the records are already stored), and an ingest without one has none", async () => {
    const again = await ingestText(
      db,
      "labels.jsonl",
      `${traceLine({ id: "a", run: "rec", label: "ASKED" })}\n`,
    );
    expect(again.duplicates).toBe(1);
    expect(again.warnings?.map((w) => w.line)).toEqual([1]);
    const clean = await ingestText(
      db,
      "clean.jsonl",
      `${traceLine({ id: "z", run: "rec2", label: "Omit" })}\n`,
    );
    expect(clean.warnings).toBeUndefined();
  });
});
