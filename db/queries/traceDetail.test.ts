import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cutOf } from "../../lib/budget/jsonBudget";
import { markArgumentsBounded } from "../../lib/probe/argumentMarks";
import { compileProbe } from "../../lib/probe/compile";
import { parseTraceFilter } from "../../lib/traceFilter";
import { ingestText, tempDb } from "../testing/ingest";
import { getTraceDetail } from "./traceDetail";
import { listTraces } from "./traceList";

// Records within the ingest limits whose shape once made every view parse and render all of it.
const { db, cleanup } = tempDb("trace-detail");
afterAll(cleanup);

const many = (n: number, v: (i: number) => unknown = (i) => i) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, v(i)]));
const call = (args: unknown) => ({ tool_calls: [{ name: "schedule_window", arguments: args }] });
const RECORDS = {
  keys: { response: call({ user_id: "u_9182", ...many(100_000), timezone: "UTC" }) },
  stringArgs: { response: call(JSON.stringify({ ...many(50_000), timezone: "Asia/Tokyo" })) },
  raw: { response: { text: "which timezone?", tool_calls: [] }, raw: { object: "x", extra: many(100_000) } },
  world: {
    response: call({ user_id: "u_9182", starts_at: "2026-09-08T09:00:00", timezone: "UTC" }),
    world_state: {
      ...many(50_000, () => ({ status: "known", value: "v" })),
      timezone: { status: "known", value: "UTC" },
    },
  },
  written: { response: call({}), side_effect: { written: { ...many(100_000), timezone: "gmt" } } },
  human: {
    response: call({ timezone: "UTC" }),
    human: { ...many(100_000, () => "ASK"), timezone: "INJECT" },
  },
};
let ids: Record<keyof typeof RECORDS, number>;

beforeAll(async () => {
  const lines = Object.entries(RECORDS).map(([id, r]) => JSON.stringify({ id, run: "heavy", ...r }));
  const s = await ingestText(db, "heavy.jsonl", `${lines.join("\n")}\n`);
  expect(s.rejected).toBe(0);
  const rows = db.sqlite.prepare("SELECT ext_id AS ext, id FROM traces").all() as {
    ext: string;
    id: number;
  }[];
  ids = Object.fromEntries(rows.map((r) => [r.ext, r.id])) as typeof ids;
}, 60_000);

async function detail(k: keyof typeof RECORDS) {
  const t = await getTraceDetail(db, ids[k]);
  if (!t) throw new Error(`no trace ${k}`);
  return t;
}

describe("getTraceDetail on heavy records", () => {
  it("reads 100,000 arguments to the page's budget, the probed field kept where it is", async () => {
    const t = await detail("keys");
    const args = (t.response.tool_calls[0] as { arguments: Record<string, unknown> }).arguments;
    expect(Object.keys(args)).toHaveLength(101);
    expect(args.timezone).toBe("UTC");
    expect(cutOf(args)).toEqual({ total: 100_002, shown: 101, from: 0 });
    // The marks come from the scorer's own rules, on the value found past the budget.
    const view = await markArgumentsBounded(t.response, compileProbe(t.probe ?? ({} as never)));
    expect(view.kind).toBe("call");
    if (view.kind !== "call") return;
    expect(view.args.find((a) => a.key === "timezone")?.score.label).toBe(t.result.fields.timezone.label);
    expect(view.cut?.total).toBe(100_002);
    expect(cutOf(t.original.parsed)).toBeUndefined();
    expect(t.original.text.length).toBeGreaterThan(1_000_000);
  });

  it("reads a JSON string of 50,001 arguments to the budget, as the scorer reads it", async () => {
    const t = await detail("stringArgs");
    const view = await markArgumentsBounded(t.response, compileProbe(t.probe ?? ({} as never)));
    expect(view.kind).toBe("call");
    if (view.kind !== "call") return;
    expect(view.argumentsWereString).toBe(true);
    expect(view.args).toHaveLength(101);
    expect(view.args.at(-1)?.key).toBe("timezone");
    expect(view.args.at(-1)?.score.label).toBe(t.result.fields.timezone.label);
  });

  it("reads each part of the record to its own budget: raw, world_state, side_effect, human", async () => {
    const raw = await detail("raw");
    expect(cutOf((raw.reread.raw as { extra: object }).extra)?.total).toBe(100_000);
    const world = await detail("world");
    const ws = world.reread.world_state as Record<string, unknown>;
    expect(ws.timezone).toEqual({ status: "known", value: "UTC" });
    expect(cutOf(ws)?.total).toBe(50_001);
    const written = await detail("written");
    const w = (written.reread.side_effect as { written: Record<string, unknown> }).written;
    expect(w.timezone).toBe("gmt");
    expect(Object.keys(w).length).toBeLessThanOrEqual(101);
    const human = await detail("human");
    expect(human.human?.timezone).toBe("INJECT");
    expect(Object.keys(human.human ?? {}).length).toBeLessThanOrEqual(51);
  });

  it("lets other work run while it reads a big record (the benchmark measures how long each slice is)", async () => {
    let turns = 0;
    let reading = true;
    const tick = () => {
      turns++;
      if (reading) setImmediate(tick);
    };
    setImmediate(tick);
    await detail("keys");
    reading = false;
    expect(turns).toBeGreaterThan(1);
  });

  it("lists the run's rows from the start of each column, whatever a record holds", () => {
    const page = listTraces(db, 1, parseTraceFilter({}), "timezone");
    expect(page.rows).toHaveLength(Object.keys(RECORDS).length);
    for (const r of page.rows) {
      expect(JSON.stringify(r).length).toBeLessThan(8_000);
      expect(Object.keys(r.labels)).toContain("timezone");
    }
  });
});
