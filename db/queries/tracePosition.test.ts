import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTraceFilter } from "../../lib/traceFilter";
import { ingestText, tempDb, traceLine } from "../testing/ingest";
import { listTraces } from "./traceList";
import { countBefore, pageHolding, traceInFilter } from "./tracePosition";

const { db, cleanup } = tempDb("trace-position");
afterAll(cleanup);

const N = 260;
let runId = 0;
let ids: number[] = [];
let injectIds: number[] = [];
beforeAll(async () => {
  // Every third trace invents UTC (INJECT); the others ask.
  const lines = Array.from({ length: N }, (_, i) =>
    i % 3 === 0
      ? traceLine({ id: `p${i}` }, { timezone: "UTC" })
      : traceLine({ id: `p${i}`, response: { text: "Which timezone?", tool_calls: [] } }),
  );
  await ingestText(db, "pos.jsonl", `${lines.join("\n")}\n`, { run: "pos" });
  runId = db.sqlite.prepare("SELECT id FROM runs WHERE name = 'pos'").pluck().get() as number;
  ids = db.sqlite
    .prepare("SELECT id FROM traces WHERE run_id = ? ORDER BY id")
    .pluck()
    .all(runId) as number[];
  injectIds = ids.filter((_, i) => i % 3 === 0);
});

const all = parseTraceFilter({});
const inject = parseTraceFilter({ field: "timezone", label: "INJECT" });

/** The pages the run page turns through from the first, by `after` cursors. */
function pages(filter = all): number[][] {
  const out: number[][] = [];
  let after: number | undefined;
  for (;;) {
    const p = listTraces(db, runId, { ...filter, after }, "timezone");
    out.push(p.rows.map((r) => r.id));
    if (p.nextAfter === null) return out;
    after = p.nextAfter;
  }
}

describe("pageHolding", () => {
  it("returns the very page that paging reaches, with the trace on it, counted or told its position", () => {
    const turned = pages();
    const id = ids[156]; // position 157: the fourth page, 151–200
    for (const position of [null, 157]) {
      const p = pageHolding(db, runId, all, "timezone", id, position);
      expect(p.start).toBe(150);
      expect(p.found).toBe(true);
      expect(p.rows.map((r) => r.id)).toEqual(turned[3]);
      expect(p.prevBefore).toBe(turned[3][0]);
      expect(p.nextAfter).toBe(turned[3].at(-1));
      expect(p.count).toEqual({ n: N, kind: "exact" });
    }
    // The first and the last page.
    expect(pageHolding(db, runId, all, "timezone", ids[3], null)).toMatchObject({
      start: 0,
      prevBefore: null,
    });
    const last = pageHolding(db, runId, all, "timezone", ids[N - 1], null);
    expect(last.rows.map((r) => r.id)).toEqual(turned.at(-1));
    expect(last.nextAfter).toBeNull();
  });

  it("aligns pages of a filter, and says when the trace is not in it", () => {
    const turned = pages(inject);
    const id = injectIds[60]; // position 61 of the INJECT traces: their second page
    const p = pageHolding(db, runId, inject, "timezone", id, null);
    expect(p).toMatchObject({ start: 50, found: true });
    expect(p.rows.map((r) => r.id)).toEqual(turned[1]);
    // An ASK trace between INJECT 60 and 61 would sit on the same page; it is not on it.
    const ask = ids[181];
    const q = pageHolding(db, runId, inject, "timezone", ask, null);
    expect(q.found).toBe(false);
    expect(q.start).toBe(50);
    expect(q.rows.map((r) => r.id)).toEqual(turned[1]);
    expect(traceInFilter(db, runId, ask, inject, "timezone")).toBe(false);
    expect(traceInFilter(db, runId, id, inject, "timezone")).toBe(true);
  });

  it("corrects a position deeper than the trace's real one", () => {
    const p = pageHolding(db, runId, all, "timezone", ids[9], 40);
    expect(p.start).toBe(0);
    expect(p.rows[9].id).toBe(ids[9]);
  });
});

describe("countBefore", () => {
  it("counts the matches before a trace", () => {
    expect(countBefore(db, runId, all, "timezone", ids[200])).toBe(200);
    expect(countBefore(db, runId, inject, "timezone", ids[200])).toBe(
      injectIds.filter((x) => x < ids[200]).length,
    );
    // A search is not counted backwards (FTS5 would read the word's whole list): its links carry it.
    expect(countBefore(db, runId, parseTraceFilter({ q: "timezone" }), "timezone", ids[10])).toBeNull();
  });
});
