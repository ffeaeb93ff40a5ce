import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type GateDecisionRecord, redactDecision } from "../../lib/gate/decisionLog";
import { fact } from "../../lib/gate/facts";
import { sideEffect } from "../../lib/gate/sideEffect";
import { GATE_LOG_PROBE, readGateLogResult } from "../../lib/ingest/gateLog";
import { responsePreview } from "../../lib/preview";
import type { Db } from "../client";
import { inconsistencies, ingestText, tempDb, traceLine } from "../testing/ingest";
import { exportBatches, exportScope } from "./exportRun";
import { ORIGINAL_OF } from "./originals";
import { getRunSummary, listRunSummaries } from "./runs";
import { listTraces } from "./traceList";

let t: ReturnType<typeof tempDb>;
let db: Db;
beforeEach(() => {
  t = tempDb("gate-log");
  db = t.db;
});
afterEach(() => t.cleanup());

/** Decisions as the gate itself records them: allowed, blocked on an unknown, blocked on a conflict. */
function decisions(redact = false): GateDecisionRecord[] {
  const out: GateDecisionRecord[] = [];
  const book = sideEffect(
    ["user_id", "action_date"],
    function book_slot(_state, slot: string) {
      return slot;
    },
    { log: (r) => out.push(r) },
  );
  book({ user_id: fact.known("u_1"), action_date: fact.known("2026-09-08") }, "09:00");
  for (const state of [
    { user_id: fact.known("u_1"), action_date: fact.unknown() },
    { user_id: fact.conflict("u_2"), action_date: fact.unknown() },
  ])
    expect(() => book(state, "10:00")).toThrow();
  if (!redact) return out;
  return out.map(redactDecision);
}

const lines = (records: unknown[]) => records.map((r) => JSON.stringify(r));

function storedOf(runName: string) {
  const run = getRunSummary(db, runName);
  if (!run) throw new Error(`no run ${runName}`);
  const page = listTraces(db, run.id, {}, null);
  const rows = db.sqlite
    .prepare("SELECT id, form, gate, result, probe_id AS probeId FROM traces WHERE run_id = ? ORDER BY id")
    .all(run.id) as { id: number; form: string; gate: string; result: string; probeId: string }[];
  return { run, page, rows };
}

describe("ingesting a gate decision log", () => {
  it("stores each decision of a gate-log run with the recorded verdict, rejects a malformed line by number and keeps the lines around it", async () => {
    const [allowed, unknown, conflict] = decisions();
    const badVerdict = { ...unknown, id: "bad-1", gate: { ...unknown.gate, verdict: "allow" } };
    const noTool = { ...allowed, id: "bad-2", tool: undefined };
    const text = [
      JSON.stringify(allowed),
      JSON.stringify(badVerdict),
      JSON.stringify(unknown),
      `${JSON.stringify(noTool)}`,
      JSON.stringify(conflict),
      "",
    ].join("\n");
    const s = await ingestText(db, "agent/gate.jsonl", text);
    expect(s).toMatchObject({ records: 5, ingested: 3, rejected: 2 });
    expect(s.errors.map((e) => e.line)).toEqual([2, 4]);
    expect(s.errors[0].reason).toMatch(/^gate decision: .*allow has no unknown or conflict fields/);
    expect(s.errors[1].reason).toMatch(/^gate decision: tool: /);
    const { run, rows } = storedOf("gate");
    expect(run.kind).toBe("gate_log");
    expect(run.rejectedCount).toBe(2);
    expect(rows.map((r) => [r.form, r.gate, r.probeId])).toEqual([
      ["gate_log", "allow", GATE_LOG_PROBE],
      ["gate_log", "block", GATE_LOG_PROBE],
      ["gate_log", "block", GATE_LOG_PROBE],
    ]);
    // Our gate agrees with the recorded one on every decision the gate itself made: no flag.
    expect(rows.map((r) => readGateLogResult(r.result)?.flags)).toEqual([[], [], []]);
    expect(readGateLogResult(rows[2].result)?.gate).toEqual({
      verdict: "block",
      unknown: ["action_date"],
      conflict: ["user_id"],
      next: "stop",
    });
    // The call as the run page previews it: the tool and its positional arguments.
    const { page } = storedOf("gate");
    expect(page.rows.map((r) => responsePreview(r.response))).toEqual([
      'book_slot(["09:00"])',
      'book_slot(["10:00"])',
      'book_slot(["10:00"])',
    ]);
    expect(run.gate).toEqual({ allow: 1, block: 2 });
    expect(run.gateUnknown).toEqual({ action_date: 2 });
    expect(run.gateConflict).toEqual({ user_id: 1 });
    expect(run.tools).toEqual({ book_slot: 3 });
    expect(inconsistencies(db.sqlite)).toEqual([]);
    // Read twice, counted once: the decision ids are the identity.
    expect(await ingestText(db, "agent/gate.jsonl", text)).toMatchObject({ ingested: 0, duplicates: 3 });
  });

  it("flags gate_mismatch where our gate, re-run on the recorded state and call, decides otherwise", async () => {
    const [allowed, unknown] = decisions();
    // An agent's gate that let a call through although a required fact was unknown.
    const wrongAllow: GateDecisionRecord = {
      ...allowed,
      id: "wrong-allow",
      world_state: { ...allowed.world_state, action_date: { status: "unknown" } },
    };
    // One that blocked on a fact that is known (the record form holds together, the decision does not).
    const wrongBlock: GateDecisionRecord = {
      ...unknown,
      id: "wrong-block",
      world_state: { ...unknown.world_state, action_date: { status: "known", value: "2026-09-09" } },
    };
    const s = await ingestText(db, "mismatch.jsonl", lines([allowed, wrongAllow, wrongBlock]).join("\n"));
    expect(s).toMatchObject({ ingested: 3, rejected: 0 });
    const { run, rows } = storedOf("mismatch");
    const results = rows.map((r) => readGateLogResult(r.result));
    expect(results.map((r) => r?.flags)).toEqual([[], ["gate_mismatch"], ["gate_mismatch"]]);
    // The recorded verdict is kept; ours is beside it.
    expect(rows.map((r) => r.gate)).toEqual(["allow", "allow", "block"]);
    expect(results[1]?.gate).toMatchObject({ verdict: "block", unknown: ["action_date"], next: "ask" });
    expect(results[2]?.gate.verdict).toBe("allow");
    expect(run.flags).toEqual({ gate_mismatch: 2 });
    const mismatched = listTraces(db, run.id, { gate: "mismatch" }, null);
    expect(mismatched.rows.map((r) => r.extId)).toEqual(["wrong-allow", "wrong-block"]);
    expect(listTraces(db, run.id, { gate: "block" }, null).rows.map((r) => r.extId)).toEqual(["wrong-block"]);
    expect(listTraces(db, run.id, { gate: "allow" }, null).rows).toHaveLength(2);
    // The export keeps both verdicts, filtered the same way.
    const scope = exportScope(db, run.name, { gate: "mismatch" });
    if (!scope.ok) throw new Error(scope.error);
    const exported = [...exportBatches(db, scope.scope)].flat();
    expect(
      exported.map((e) => [
        e.id,
        (e.recorded_gate as { verdict: string }).verdict,
        (e.gate as { verdict: string }).verdict,
      ]),
    ).toEqual([
      ["wrong-allow", "allow", "block"],
      ["wrong-block", "block", "allow"],
    ]);
  });

  it("ingests redacted decisions (names and statuses kept) with the verdicts the values gave", async () => {
    const red = decisions(true);
    const s = await ingestText(db, "redacted.jsonl", lines(red).join("\n"));
    expect(s).toMatchObject({ ingested: 3, rejected: 0 });
    const { run, rows } = storedOf("redacted");
    expect(rows.map((r) => r.gate)).toEqual(["allow", "block", "block"]);
    expect(rows.map((r) => readGateLogResult(r.result)?.flags)).toEqual([[], [], []]);
    expect(run.gateUnknown).toEqual({ action_date: 2 });
    const stored = JSON.stringify(
      db.sqlite
        .prepare(`SELECT response, CAST(${ORIGINAL_OF} AS TEXT) AS o FROM traces WHERE run_id = ?`)
        .all(run.id),
    );
    expect(stored).not.toContain("u_1");
    expect(stored).toContain("[redacted]");
  });

  it("keeps gate-log runs and probe runs apart: a record of the other kind is refused with the run named", async () => {
    const [allowed] = decisions();
    const s = await ingestText(
      db,
      "mixed.jsonl",
      [JSON.stringify(allowed), traceLine({ id: "t1" })].join("\n"),
    );
    expect(s).toMatchObject({ ingested: 1, rejected: 1 });
    expect(s.errors[0]).toMatchObject({ line: 2 });
    expect(s.errors[0].reason).toMatch(/run "mixed" is a gate-log run/);
    const p = await ingestText(
      db,
      "probe.jsonl",
      [traceLine({ id: "t2" }), JSON.stringify(allowed)].join("\n"),
    );
    expect(p.errors[0].reason).toMatch(/run "probe" is a probe run: a gate decision goes in a gate-log run/);
    const kinds = Object.fromEntries(listRunSummaries(db).map((r) => [r.name, r.kind]));
    expect(kinds).toEqual({ mixed: "gate_log", probe: "probe" });
    expect(inconsistencies(db.sqlite)).toEqual([]);
  });
});
