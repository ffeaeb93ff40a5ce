import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tagSignature } from "../../lib/ingest/tagSignature";
import { parseTraceFilter } from "../../lib/traceFilter";
import { ingestText, tempDb, traceLine } from "../testing/ingest";
import { COUNT_SAMPLE, ftsQuery, listTraces, neighbours, PAGE_SIZE, SEARCH_COUNT_CAP } from "./traceList";

const { db, cleanup } = tempDb("trace-list");
afterAll(cleanup);

const N = 6_000;
/** Five shapes in turn: ask, injected bait, omitted, injected with a question (ask_and_call), injected. */
function line(i: number): string {
  const ask = { response: { text: "Which timezone are you in?", tool_calls: [] } };
  switch (i % 5) {
    case 0:
      return traceLine(ask);
    case 1:
      return traceLine({ id: `t${i}` }, { timezone: "UTC" });
    case 2:
      return traceLine({ id: `t${i}` });
    case 3:
      return traceLine(
        {
          id: `t${i}`,
          response: {
            text: "Booked. Which timezone did you mean?",
            tool_calls: [{ name: "schedule_window", arguments: { timezone: "Asia/Tokyo" } }],
          },
        },
        {},
      );
    default:
      return traceLine({ id: `t${i}` }, { timezone: `Zone/Number${i}` });
  }
}

let runId = 0;
beforeAll(async () => {
  const lines = Array.from({ length: N }, (_, i) => line(i));
  await ingestText(db, "list.jsonl", `${lines.join("\n")}\n`, { run: "list" });
  runId = db.sqlite.prepare("SELECT id FROM runs WHERE name = 'list'").pluck().get() as number;
}, 120_000);

/** Every id matching a filter, the slow way: from the stored labels and results, not the tags. */
function bruteForce(where: string): number[] {
  return db.sqlite
    .prepare(`SELECT id FROM traces WHERE run_id = ? AND ${where} ORDER BY id`)
    .pluck()
    .all(runId) as number[];
}

/** Walks every page forward through `after` cursors. */
function allPages(query: Record<string, string>): { ids: number[]; pages: number } {
  const ids: number[] = [];
  let after: number | null = null;
  let pages = 0;
  for (;;) {
    const filter = parseTraceFilter(after === null ? query : { ...query, after: String(after) });
    const page = listTraces(db, runId, filter, query.field ?? "timezone");
    ids.push(...page.rows.map((r) => r.id));
    pages++;
    if (page.nextAfter === null) return { ids, pages };
    after = page.nextAfter;
  }
}

describe("ftsQuery", () => {
  it("matches whole words, and a prefix only where the user ends a word with *", () => {
    expect(ftsQuery("which zone")).toBe('"which" "zone"');
    expect(ftsQuery("tok* utc")).toBe('"tok"* "utc"');
    expect(ftsQuery("America/New_York")).toBe('"America" "New_York"');
  });

  it("turns FTS syntax and quotes into plain words, and nothing searchable into null", () => {
    expect(ftsQuery('"a" OR b NEAR(c) -d')).toBe('"a" "OR" "b" "NEAR" "c" "d"');
    expect(ftsQuery('*** "" ()')).toBeNull();
  });
});

describe("listTraces", () => {
  it("pages a two-tag filter to exactly the traces that match, in ingest order", () => {
    const want = bruteForce(
      `json_extract(labels, '$.timezone') = 'INJECT' AND EXISTS (SELECT 1 FROM json_each(result, '$.flags') WHERE value = 'ask_and_call')`,
    );
    expect(want.length).toBe(N / 5);
    const got = allPages({ label: "INJECT", flag: "ask_and_call" });
    expect(got.ids).toEqual(want);
    expect(got.pages).toBe(Math.ceil(want.length / PAGE_SIZE));
  });

  it("pages backwards through `before` to the same rows", () => {
    const query = { label: "OMIT" };
    const forward = allPages(query).ids;
    const last = listTraces(
      db,
      runId,
      parseTraceFilter({ ...query, after: String(forward.at(-PAGE_SIZE - 1)) }),
      "timezone",
    );
    expect(last.rows.map((r) => r.id)).toEqual(forward.slice(-PAGE_SIZE));
    const back = listTraces(
      db,
      runId,
      parseTraceFilter({ ...query, before: String(last.rows[0].id) }),
      "timezone",
    );
    expect(back.rows.map((r) => r.id)).toEqual(forward.slice(-2 * PAGE_SIZE, -PAGE_SIZE));
    expect(back.nextAfter).toBe(back.rows.at(-1)?.id);
  });

  it("counts one tag exactly from the kept counts", () => {
    const page = listTraces(db, runId, parseTraceFilter({ label: "ASK" }), "timezone");
    expect(page.count).toEqual({
      n: bruteForce(`json_extract(labels, '$.timezone') = 'ASK'`).length,
      kind: "exact",
    });
  });

  it("estimates two tags from a sample of the rarest when it is common, and the estimate is close", () => {
    const want = bruteForce(
      `json_extract(labels, '$.timezone') = 'INJECT' AND json_extract(result, '$.gate.verdict') = 'block'`,
    ).length;
    const page = listTraces(db, runId, parseTraceFilter({ label: "INJECT", gate: "block" }), "timezone");
    expect(page.count.kind).toBe("estimate");
    expect(Math.abs(page.count.n - want) / want).toBeLessThan(0.05);
  });

  it("counts two tags exactly when the rarest is on no more than the sample", () => {
    expect(N / 5).toBeLessThanOrEqual(COUNT_SAMPLE);
    const page = listTraces(
      db,
      runId,
      parseTraceFilter({ label: "INJECT", flag: "ask_and_call" }),
      "timezone",
    );
    expect(page.count).toEqual({ n: N / 5, kind: "exact" });
  });

  it("counts a search up to the cap, and exactly below it", () => {
    const many = listTraces(db, runId, parseTraceFilter({ q: "timezone" }), "timezone");
    expect(2 * (N / 5)).toBeGreaterThan(SEARCH_COUNT_CAP);
    expect(many.count).toEqual({ n: SEARCH_COUNT_CAP, kind: "atLeast" });
    const one = listTraces(db, runId, parseTraceFilter({ q: "Number4" }), "timezone");
    expect(one.count).toEqual({ n: 1, kind: "exact" });
    expect(one.rows).toHaveLength(1);
  });

  it("searches whole words unless a word ends with *", () => {
    expect(listTraces(db, runId, parseTraceFilter({ q: "Tok" }), "timezone").count.n).toBe(0);
    const prefix = listTraces(db, runId, parseTraceFilter({ q: "Tok*" }), "timezone");
    expect(prefix.count).toEqual({ n: SEARCH_COUNT_CAP, kind: "atLeast" });
    const asked = listTraces(db, runId, parseTraceFilter({ q: "tokyo", label: "INJECT" }), "timezone");
    expect(asked.rows.every((r) => r.labels.timezone === "INJECT")).toBe(true);
  });

  it("pages a search through `after` cursors to exactly the traces that match, common word or rare", () => {
    // "timezone" is in 2 of every 5 texts: found among the traces right after the cursor.
    const common = bruteForce(`json_extract(response, '$.text') LIKE '%timezone%'`);
    expect(allPages({ q: "timezone" }).ids).toEqual(common);
    // "Tokyo" is in 1 of 5: too few right after the cursor, so the rest comes from the range query.
    const rare = bruteForce(`response LIKE '%Tokyo%'`);
    expect(rare.length).toBe(N / 5);
    expect(allPages({ q: "tokyo" }).ids).toEqual(rare);
    const both = bruteForce(
      `json_extract(labels, '$.timezone') = 'ASK' AND json_extract(response, '$.text') LIKE '%timezone%'`,
    );
    expect(allPages({ q: "timezone", label: "ASK" }).ids).toEqual(both);
  });

  it("pages a search backwards through `before`", () => {
    const all = allPages({ q: "tokyo" }).ids;
    const back = listTraces(
      db,
      runId,
      parseTraceFilter({ q: "tokyo", before: String(all[200]) }),
      "timezone",
    );
    expect(back.rows.map((r) => r.id)).toEqual(all.slice(200 - PAGE_SIZE, 200));
  });

  it("finds nothing for a filter no trace has, with an exact zero", () => {
    const page = listTraces(db, runId, parseTraceFilter({ label: "COPY", flag: "ask_and_call" }), "timezone");
    expect(page.rows).toEqual([]);
    expect(page.count).toEqual({ n: 0, kind: "exact" });
  });

  it("stores each trace's tag signature on its tag rows", () => {
    const rows = db.sqlite
      .prepare(
        `SELECT x.trace_id AS id, x.sig, json_group_array(n.name) AS names FROM trace_tags x
          JOIN tag_names n ON n.id = x.tag_id WHERE x.run_id = ? GROUP BY x.trace_id, x.sig`,
      )
      .all(runId) as { id: number; sig: number; names: string }[];
    // One signature per trace, the signature of its tag names.
    expect(rows.length).toBe(N);
    for (const r of rows) expect(r.sig).toBe(tagSignature(JSON.parse(r.names)));
  });

  it("finds the same traces when some tag rows predate signatures (sig -1, every bit)", () => {
    const filters: Record<string, string>[] = [
      { label: "INJECT", flag: "ask_and_call" },
      { label: "INJECT", gate: "block" },
      { label: "COPY", flag: "ask_and_call" },
    ];
    const before = filters.map((f) => allPages(f).ids);
    const counts = filters.map((f) => listTraces(db, runId, parseTraceFilter(f), "timezone").count);
    const old = db.sqlite
      .prepare("SELECT tag_id, trace_id, sig FROM trace_tags WHERE run_id = ? AND trace_id % 3 = 0")
      .all(runId) as { tag_id: number; trace_id: number; sig: number }[];
    db.sqlite.prepare("UPDATE trace_tags SET sig = -1 WHERE run_id = ? AND trace_id % 3 = 0").run(runId);
    try {
      expect(filters.map((f) => allPages(f).ids)).toEqual(before);
      expect(filters.map((f) => listTraces(db, runId, parseTraceFilter(f), "timezone").count)).toEqual(
        counts,
      );
    } finally {
      const restore = db.sqlite.prepare(
        "UPDATE trace_tags SET sig = ? WHERE run_id = ? AND tag_id = ? AND trace_id = ?",
      );
      db.sqlite.transaction(() => {
        for (const r of old) restore.run(r.sig, runId, r.tag_id, r.trace_id);
      })();
    }
  });

  it("gives a trace's neighbours within the filter", () => {
    const ids = allPages({ label: "OMIT" }).ids;
    const f = parseTraceFilter({ label: "OMIT" });
    expect(neighbours(db, runId, ids[10], f, "timezone")).toEqual({ prev: ids[9], next: ids[11] });
    expect(neighbours(db, runId, ids[0], f, "timezone")).toEqual({ prev: null, next: ids[1] });
    const found = allPages({ q: "tokyo" }).ids;
    const q = parseTraceFilter({ q: "tokyo" });
    expect(neighbours(db, runId, found[100], q, "timezone")).toEqual({ prev: found[99], next: found[101] });
    expect(neighbours(db, runId, found.at(-1) ?? 0, q, "timezone")).toEqual({
      prev: found.at(-2),
      next: null,
    });
  });
});
