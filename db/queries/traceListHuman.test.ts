import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkTraceFilter, HUMAN_FILTERS, parseTraceFilter } from "../../lib/traceFilter";
import { ingestText, tempDb, traceLine } from "../testing/ingest";
import { COUNT_SAMPLE, listTraces, matchingTraceIds, neighbours } from "./traceList";

const { db, cleanup } = tempDb("trace-list-human");
afterAll(cleanup);

// More traces than the count sample, so "any field" counts are estimates and paging is deep.
const N = COUNT_SAMPLE + 1_500;

/** Human labels on some fields: none, timezone only, severity only, both; agreeing with ours or not. */
function line(i: number): string {
  const human: Record<string, string> = {};
  if (i % 7 === 1 || i % 7 === 3) human.timezone = i % 2 ? "INJECT" : "ASK";
  if (i % 7 === 2 || i % 7 === 3) human.severity = i % 3 ? "OMIT" : "DRIFT";
  if (i % 11 === 0) human.timezone = "COPY";
  const extra: Record<string, unknown> = { id: `h${i}` };
  if (Object.keys(human).length) extra.human = human;
  if (i % 4 === 0) extra.response = { text: "Which timezone is it?", tool_calls: [] };
  return traceLine(extra, i % 4 === 1 ? { timezone: "UTC" } : {});
}

let runId = 0;
beforeAll(async () => {
  const lines = Array.from({ length: N }, (_, i) => line(i));
  await ingestText(db, "human.jsonl", `${lines.join("\n")}\n`, { run: "human" });
  runId = db.sqlite.prepare("SELECT id FROM runs WHERE name = 'human'").pluck().get() as number;
}, 120_000);

type Row = { id: number; labels: Record<string, string>; human: Record<string, string> | null; text: string };
let rows: Row[] = [];
beforeAll(() => {
  rows = (
    db.sqlite
      .prepare("SELECT id, labels, human, response FROM traces WHERE run_id = ? ORDER BY id")
      .all(runId) as {
      id: number;
      labels: string;
      human: string | null;
      response: string;
    }[]
  ).map((r) => ({
    id: r.id,
    labels: JSON.parse(r.labels),
    human: r.human ? JSON.parse(r.human) : null,
    text: JSON.parse(r.response).text ?? "",
  }));
});

/** Whether one field of a trace passes `human=value`, the slow way, from the stored labels. */
function humanPasses(r: Row, field: string, value: string): boolean {
  const fields = field === "*" ? Object.keys(r.labels) : [field];
  const has = fields.filter((f) => r.human?.[f] !== undefined && r.labels[f] !== undefined);
  if (value === "unreviewed") return has.length === 0;
  if (value === "reviewed") return has.length > 0;
  if (value === "differs") return has.some((f) => r.human?.[f].toUpperCase() !== r.labels[f]);
  if (value === "agree") return has.some((f) => r.human?.[f].toUpperCase() === r.labels[f]);
  return has.some((f) => r.human?.[f].toUpperCase() === value);
}

function allPages(query: Record<string, string>, field: string): number[] {
  const ids: number[] = [];
  let after: number | null = null;
  for (;;) {
    const filter = parseTraceFilter(after === null ? query : { ...query, after: String(after) });
    const page = listTraces(db, runId, filter, field);
    ids.push(...page.rows.map((r) => r.id));
    if (page.nextAfter === null) return ids;
    after = page.nextAfter;
  }
}

const CASES = HUMAN_FILTERS.flatMap((human) =>
  ["timezone", "severity", "*"].map((field) => ({ human, field })),
);

describe("human filters (L, reviewed, unreviewed, differs, agree)", () => {
  it.each(CASES)(
    "human=$human on field $field pages, streams and counts exactly the matching traces",
    ({ human, field }) => {
      const want = rows.filter((r) => humanPasses(r, field, human)).map((r) => r.id);
      const filter = parseTraceFilter({ human });
      expect(allPages({ human }, field)).toEqual(want);
      expect([...matchingTraceIds(db, runId, filter, field, 333)].flat()).toEqual(want);
      const count = listTraces(db, runId, filter, field).count;
      if (count.kind === "exact") expect(count.n).toBe(want.length);
      else expect(Math.abs(count.n - want.length)).toBeLessThanOrEqual(Math.max(50, want.length * 0.15));
    },
  );

  it.each(["reviewed", "unreviewed", "ASK", "differs"])(
    "human=%s combines with a label and with a search",
    (human) => {
      const byLabel = rows
        .filter((r) => humanPasses(r, "timezone", human) && r.labels.timezone === "INJECT")
        .map((r) => r.id);
      expect(allPages({ human, label: "INJECT" }, "timezone")).toEqual(byLabel);
      const bySearch = rows
        .filter((r) => humanPasses(r, "timezone", human) && /which timezone/i.test(r.text))
        .map((r) => r.id);
      expect(bySearch.length).toBeGreaterThan(0);
      expect(allPages({ human, q: "which timezone" }, "timezone")).toEqual(bySearch);
      expect(
        [...matchingTraceIds(db, runId, parseTraceFilter({ human, q: "which" }), "timezone", 100)].flat(),
      ).toEqual(bySearch);
    },
  );

  it("gives neighbours within a reviewed / unreviewed filter", () => {
    for (const human of ["reviewed", "unreviewed"]) {
      const want = rows.filter((r) => humanPasses(r, "timezone", human)).map((r) => r.id);
      const mid = want[Math.floor(want.length / 2)];
      const nb = neighbours(db, runId, mid, parseTraceFilter({ human }), "timezone");
      expect(nb).toEqual({ prev: want[want.indexOf(mid) - 1], next: want[want.indexOf(mid) + 1] });
    }
  });

  it("reads the older word disagree as differs", () => {
    expect(parseTraceFilter({ human: "disagree" }).human).toBe("differs");
  });
});

describe("checkTraceFilter", () => {
  it.each([
    [{ label: "NOPE" }, /label must be one of ASK/],
    [{ human: "maybe" }, /human must be one of .*reviewed/],
    [{ q: "a".repeat(201) }, /search is at most 200/],
    [{ after: "0" }, /after must be a trace id/],
    [{ before: "-3" }, /before must be a trace id/],
    [{ after: "99999999999999999" }, /too large|trace id/],
    [{ after: "1e3" }, /after must be a trace id/],
    [{ probe: "no such/probe" }, /probe is not a probe id/],
    [{ field: "f".repeat(201) }, /field is longer than 200/],
    [{ gate: "open" }, /gate must be one of/],
    [{ reason: "guess" }, /reason must be one of/],
    [{ flag: "nope" }, /flag must be one of/],
    [{ recorded: "yes" }, /recorded must be one of/],
    [{ label: ["ASK", "OMIT"] }, /label is given 2 times/],
  ])("refuses %j with a message", (params, message) => {
    const r = checkTraceFilter(params);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(message);
  });

  it("accepts a valid filter and empty values", () => {
    const r = checkTraceFilter(new URLSearchParams("label=ASK&human=&q=which%20zone&after=12"));
    expect(r).toEqual({ ok: true, filter: { label: "ASK", q: "which zone", after: 12 } });
  });
});
