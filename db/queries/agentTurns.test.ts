import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TURN_FORMS } from "../../lib/ingest/agentTurns";
import { A, agentTurnsFile, B, chatSpan, line } from "../../lib/testing/otlpFiles";
import { parseTraceFilter } from "../../lib/traceFilter";
import { ingestText, tempDb } from "../testing/ingest";
import { expectConsistent } from "../testing/rescore";
import { TURN_ROWS } from "./agentTurns";
import { rereadAllRuns } from "./rescore/run";
import { getRunSummary } from "./runs";
import { listTraces } from "./traceList";

/** Agent turns through the real store (a SQLite file): OTLP files whose traces hold several generations. */

/** Per ext_id: whether the trace carries agent_step. */
function steps(db: ReturnType<typeof tempDb>["db"], run: string): Record<string, boolean> {
  const rows = db.sqlite
    .prepare("SELECT t.ext_id AS id, t.result FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = ?")
    .all(run) as { id: string; result: string }[];
  return Object.fromEntries(
    rows.map((r) => [r.id, (JSON.parse(r.result).flags as string[]).includes("agent_step")]),
  );
}

const OTEL = join(import.meta.dirname, "..", "..", "fixtures", "testdata", "otel");
const C = "cccccccccccccccccccccccccccccccc";
const LANGFUSE = join(import.meta.dirname, "..", "..", "fixtures", "langfuse");

describe("agent turns", () => {
  const t = tempDb("agentturns");
  afterAll(() => t.cleanup());

  it("finds a turn's generations through the turn index, which covers every turn form", () => {
    const plan = t.db.sqlite.prepare(`EXPLAIN QUERY PLAN ${TURN_ROWS}`).all(1, "a:", "a;") as {
      detail: string;
    }[];
    expect(plan.map((p) => p.detail).join("\n")).toMatch(/USING INDEX traces_turn/);
  });

  it("stores every generation; per turn the first calling the probe's tool counts, else the last", async () => {
    // Turn A: three generations, the call in the second (by start time), lines out of order.
    // Turn B: two generations, no call: the later one counts.
    const file = agentTurnsFile();
    const s = await ingestText(t.db, "agent.otlp.jsonl", file, { format: "auto", run: "turns" });
    expect(s.runs).toEqual([expect.objectContaining({ name: "turns", ingested: 5 })]);
    expect(steps(t.db, "turns")).toEqual({
      [`${A}:a1`]: true,
      [`${A}:a2`]: false,
      [`${A}:a3`]: true,
      [`${B}:b1`]: true,
      [`${B}:b2`]: false,
    });
    // The rates count two generations, one per turn: A's call (INJECT) and B's question (ASK).
    const run = getRunSummary(t.db, "turns");
    const tz = run?.fields.find((f) => f.field === "timezone");
    expect(tz?.n).toBe(2);
    expect(tz?.labels.INJECT).toBe(1);
    expect(tz?.labels.ASK).toBe(1);
    expect(run?.probes).toEqual([{ id: "schedule_window", n: 2 }]);
    expect(run?.flags.agent_step).toBe(3);
    expect(run?.traceCount).toBe(5);
    expectConsistent(t.db);
    // The run page's flag filter finds the steps.
    const runId = run?.id as number;
    const listed = listTraces(t.db, runId, parseTraceFilter({ flag: "agent_step" }), null);
    expect(listed.rows.map((r) => r.extId).sort()).toEqual([`${A}:a1`, `${A}:a3`, `${B}:b1`]);
    expect(listed.count.n).toBe(3);
    // Combined with a label: the steps' signatures carry the flag's bit, so none is skipped.
    const drift = listTraces(
      t.db,
      runId,
      parseTraceFilter({ flag: "agent_step", label: "DRIFT" }),
      "timezone",
    );
    expect(drift.rows.map((r) => r.extId).sort()).toEqual([`${A}:a1`, `${A}:a3`, `${B}:b1`]);
  });

  it("decides a turn again when a later ingest adds a generation to it", async () => {
    await ingestText(t.db, "c1.otlp.jsonl", line(chatSpan(C, "c2", 2, { text: "Which timezone?" })), {
      format: "auto",
      run: "late",
    });
    expect(steps(t.db, "late")).toEqual({ [`${C}:c2`]: false });
    // An earlier generation of the same turn, calling the tool, arrives in another file.
    await ingestText(t.db, "c2.otlp.jsonl", line(chatSpan(C, "c1", 1, { timezone: "UTC" })), {
      format: "auto",
      run: "late",
    });
    expect(steps(t.db, "late")).toEqual({ [`${C}:c1`]: false, [`${C}:c2`]: true });
    const run = getRunSummary(t.db, "late");
    expect(run?.fields.find((f) => f.field === "timezone")?.labels).toMatchObject({ INJECT: 1, ASK: 0 });
    expect(run?.flags.agent_step).toBe(1);
    expectConsistent(t.db);
    // The same file again changes nothing.
    await ingestText(t.db, "c2.otlp.jsonl", line(chatSpan(C, "c1", 1, { timezone: "UTC" })), {
      format: "auto",
      run: "late",
    });
    expect(steps(t.db, "late")).toEqual({ [`${C}:c1`]: false, [`${C}:c2`]: true });
    expectConsistent(t.db);
  });

  it("reads a Phoenix trace's LLM spans as one turn too", async () => {
    const [first] = readFileSync(join(OTEL, "phoenix-nested.jsonl"), "utf8").split("\n");
    const calling = JSON.parse(first);
    // A text answer one second before the call, in the same trace, on the line after it.
    const asking = structuredClone(calling);
    asking.context.span_id = "a1b2c3d4e5f60700";
    asking.start_time = "2025-03-04T09:59:59.000000+00:00";
    asking.attributes.llm.output_messages = [{ message: { role: "assistant", content: "Which timezone?" } }];
    const file = `${JSON.stringify(calling)}\n${JSON.stringify(asking)}\n`;
    await ingestText(t.db, "turn.phoenix.jsonl", file, { format: "auto", run: "phoenix" });
    const trace = calling.context.trace_id;
    expect(steps(t.db, "phoenix")).toEqual({
      [`${trace}:a1b2c3d4e5f60718`]: false,
      [`${trace}:a1b2c3d4e5f60700`]: true,
    });
    expect(getRunSummary(t.db, "phoenix")?.fields.find((f) => f.field === "timezone")?.n).toBe(1);
    expectConsistent(t.db);
  });

  it("reads a Langfuse trace's generations as one turn (a real Claude Agent SDK export)", async () => {
    // Four generations, by start time: a text, two mcp__weather__get_weather calls, the answer.
    // schedule_window's tool is none of them: the turn's last counts.
    const file = readFileSync(join(LANGFUSE, "claude-agent-2025-12-22.trace.json"));
    const s = await ingestText(t.db, "claude.trace.json", file, {
      format: "auto",
      run: "langfuse-turn",
      probeGiven: true,
    });
    expect(s).toMatchObject({ ingested: 4, rejected: 0, spans_skipped: 3 });
    const trace = "097f1d8982fa909b8cffb14a166ec272";
    expect(steps(t.db, "langfuse-turn")).toEqual({
      [`${trace}:e9aac170e5d48125`]: true,
      [`${trace}:2cc13e77781787fd`]: true,
      [`${trace}:f8e8f040dc94e67e`]: true,
      [`${trace}:371496f71d82baed`]: false,
    });
    expect(getRunSummary(t.db, "langfuse-turn")?.fields.find((f) => f.field === "timezone")?.n).toBe(1);
    expectConsistent(t.db);
  });

  it("finds a turn's counted generations through the turn index, for every format that has turns", () => {
    const plan = t.db.sqlite.prepare(`EXPLAIN QUERY PLAN ${TURN_ROWS}`).all(1, "a:", "a;") as {
      detail: string;
    }[];
    expect(plan.map((p) => p.detail).join("\n")).toContain("traces_turn");
    const index = t.db.sqlite
      .prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'traces_turn'")
      .pluck()
      .get() as string;
    for (const form of TURN_FORMS) expect(index).toContain(`'${form}'`);
  });

  it("decides a long turn spread over many batches as it would all at once", async () => {
    // 300 generations of one turn, 7 to a batch, shuffled: calls in the 123rd and (earlier in the file) the 201st.
    const order = Array.from({ length: 300 }, (_, i) => i).sort(
      (x, y) => ((x * 7919) % 300) - ((y * 7919) % 300),
    );
    const D = "dddddddddddddddddddddddddddddddd";
    const span = (i: number) => {
      const sp = chatSpan(
        D,
        `d${String(i).padStart(3, "0")}`,
        0,
        i === 122 || i === 200 ? { timezone: "UTC" } : { text: "Checking." },
      );
      const start = BigInt(Date.UTC(2026, 8, 8, 9, 0, 0)) * 1_000_000n + BigInt(i) * 1_000_000n;
      return { ...sp, startTimeUnixNano: String(start), endTimeUnixNano: String(start + 1n) };
    };
    const file = order.map((i) => line(span(i))).join("\n");
    await ingestText(t.db, "long.otlp.jsonl", file, { format: "auto", run: "long", batchSize: 7 });
    const counted = Object.entries(steps(t.db, "long")).filter(([, step]) => !step);
    expect(counted).toEqual([[`${D}:d122`, false]]);
    expect(getRunSummary(t.db, "long")?.flags.agent_step).toBe(299);
    expectConsistent(t.db);
  });

  it("keeps the flags through a re-score", async () => {
    const before = {
      turns: steps(t.db, "turns"),
      late: steps(t.db, "late"),
      phoenix: steps(t.db, "phoenix"),
    };
    const reports = rereadAllRuns(t.db, "test");
    expect(reports.every((r) => r.status === "done")).toBe(true);
    expect({
      turns: steps(t.db, "turns"),
      late: steps(t.db, "late"),
      phoenix: steps(t.db, "phoenix"),
    }).toEqual(before);
    expect(Object.values(before.turns).filter(Boolean)).toHaveLength(3);
    expect(getRunSummary(t.db, "turns")?.fields.find((f) => f.field === "timezone")?.n).toBe(2);
    expectConsistent(t.db);
  });
});
