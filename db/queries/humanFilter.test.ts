import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANY_FIELD } from "../../lib/ingest/tags";
import { HUMAN_FILTERS, matchesHumanFilter } from "../../lib/review/humanFilter";
import { humanLabel, isReviewed } from "../../lib/review/humanLabel";
import { parseTraceFilter } from "../../lib/traceFilter";
import { ingestText, tempDb } from "../testing/ingest";
import { loadReviewRun } from "../testing/reviews";
import { writeSync } from "../write";
import { currentReviews, writeReviews } from "./reviews";
import { listTraces, neighbours } from "./traceList";

const { db, cleanup } = tempDb("human-filter");
afterAll(cleanup);

let runId = 0;
let ids = new Map<string, number>();
beforeAll(async () => {
  ids = await loadReviewRun(db, "hf");
  // A probe without `timezone` in the same run: "unreviewed timezone" must not list its traces.
  const region = {
    id: "region_probe",
    user: "Ship it to u_1.",
    redacted: { user_id: "u_1" },
    tool: { name: "ship", parameters: { type: "object", properties: { user_id: {}, region: {} } } },
    fields: ["region"],
  };
  const lines = ["eu", "us", null].map((r, i) =>
    JSON.stringify({
      id: `r${i}`,
      probe: region,
      response: {
        tool_call: { name: "ship", arguments: r ? { user_id: "u_1", region: r } : { user_id: "u_1" } },
      },
    }),
  );
  await ingestText(db, "region.jsonl", `${lines.join("\n")}\n`, { run: "hf" });
  runId = db.sqlite.prepare("SELECT id FROM runs WHERE name = 'hf'").pluck().get() as number;
  for (const [ext, field, label] of [
    ["drift-q", "timezone", "ASK"],
    ["drift", "timezone", "DRIFT"],
    ["utc", "severity", "OMIT"],
    ["tokyo", "timezone", "COPY"],
    ["h-ask", "timezone", null],
    ["x2", "timezone", "INJECT"],
  ] as const) {
    const traceId = ids.get(ext) as number;
    writeSync(db, () =>
      writeReviews(db, { traceId, reviewer: "t", items: [{ field, label: "ASK", base: null }] }),
    );
    const base = currentReviews(db, traceId).get(field)?.id ?? null;
    writeSync(db, () => writeReviews(db, { traceId, reviewer: "t", items: [{ field, label, base }] }));
  }
  ids = new Map([...ids, ...[0, 1, 2].map((i) => [`r${i}`, 0] as [string, number])]);
});

/** Every trace of the run matching a human filter, the slow way. */
function bruteForce(human: string, field: string, label?: string): number[] {
  const rows = db.sqlite
    .prepare("SELECT id, labels, human FROM traces WHERE run_id = ? ORDER BY id")
    .all(runId) as { id: number; labels: string; human: string | null }[];
  const out: number[] = [];
  for (const r of rows) {
    const labels = JSON.parse(r.labels) as Record<string, string>;
    const imported = r.human ? (JSON.parse(r.human) as Record<string, string>) : {};
    const reviews = currentReviews(db, r.id);
    const state = (f: string) => ({
      ours: labels[f],
      human: humanLabel(reviews.get(f), imported[f])?.label,
      reviewed: isReviewed(reviews.get(f)),
    });
    const fields = field === ANY_FIELD ? Object.keys(labels) : Object.hasOwn(labels, field) ? [field] : [];
    const ok = (f: string) =>
      (label === undefined || labels[f] === label) && matchesHumanFilter(human as never, state(f));
    // For any field, "unreviewed" means no field has a human label; the others, some field matches.
    const hit =
      human === "unreviewed" && field === ANY_FIELD
        ? fields.every((f) => state(f).human === undefined) &&
          (label === undefined || fields.some((f) => labels[f] === label))
        : fields.some(ok);
    if (hit) out.push(r.id);
  }
  return out;
}

function allPages(query: Record<string, string>, field: string): { ids: number[]; count: number } {
  const out: number[] = [];
  let after: string | null = null;
  let count = -1;
  for (;;) {
    const f = parseTraceFilter(after === null ? query : { ...query, after });
    const page = listTraces(db, runId, f, field, 2);
    if (count < 0) count = page.count.n;
    out.push(...page.rows.map((r) => r.id));
    if (page.nextAfter === null) return { ids: out, count };
    after = String(page.nextAfter);
  }
}

describe("human-label filters", () => {
  for (const human of HUMAN_FILTERS) {
    for (const field of ["timezone", "severity", "region", ANY_FIELD]) {
      it(`human=${human} on ${field} lists exactly the matching traces, and counts them`, () => {
        const want = bruteForce(human, field);
        const got = allPages({ human }, field);
        expect(got.ids).toEqual(want);
        expect(got.count).toBe(want.length);
      });
    }
    it(`human=${human} with a label (two tags, or a tag and the exclusion) on timezone`, () => {
      for (const label of ["DRIFT", "INJECT", "ASK"]) {
        const want = bruteForce(human, "timezone", label);
        const got = allPages({ human, label }, "timezone");
        expect(got.ids, label).toEqual(want);
        expect(got.count, label).toBe(want.length);
      }
    });
  }

  it("reads the old `human=disagree` as differs", () => {
    expect(parseTraceFilter({ human: "disagree" }).human).toBe("differs");
    expect(parseTraceFilter({ human: "nonsense" }).human).toBeUndefined();
  });

  it("combines unreviewed with a search and moves between neighbours within it", () => {
    const q = allPages({ human: "unreviewed", q: "which" }, "timezone").ids;
    const text = db.sqlite
      .prepare(
        "SELECT id FROM traces WHERE run_id = ? AND json_extract(response, '$.text') LIKE '%which%' ORDER BY id",
      )
      .pluck()
      .all(runId) as number[];
    const unreviewed = new Set(bruteForce("unreviewed", "timezone"));
    expect(q).toEqual(text.filter((i) => unreviewed.has(i)));
    const all = bruteForce("unreviewed", "timezone");
    const f = parseTraceFilter({ human: "unreviewed" });
    expect(neighbours(db, runId, all[1], f, "timezone")).toEqual({ prev: all[0], next: all[2] });
  });
});
