/**
 * `assumeprobe ingest` on a decision log the built `assumeprobe/gate/node` entry wrote in a process
 * of its own (as a user's agent would), plain and redacted, with a line cut off by a crash; and on
 * one the Python twin's file_sink wrote, keyword arguments and all.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { originalOf } from "../../db/queries/originals";
import { runPython, twinFolder } from "../gate/python/testPython";
import { cliSandbox } from "./testCli";

const ROOT = join(import.meta.dirname, "..", "..");
const GATE = join(ROOT, "dist", "gate", "gate.mjs");
const NODE = join(ROOT, "dist", "gate", "node.mjs");

const box = cliSandbox("gate-log");
afterAll(() => box.cleanup());

/** An agent that books slots through the gate and logs each decision to `log`. */
const AGENT = (log: string, options: string) => `
import { fact, sideEffect } from ${JSON.stringify(pathToFileURL(GATE).href)};
import { fileSink } from ${JSON.stringify(pathToFileURL(NODE).href)};
const book = sideEffect(["user_id", "action_date"], function book_slot(state, room) { return room; },
  { log: fileSink(${JSON.stringify(log)}, ${options}) });
const turns = [
  { user_id: fact.known("u_1", "session"), action_date: fact.known("2026-09-08", "user") },
  { user_id: fact.known("u_1", "session"), action_date: fact.unknown() },
  { user_id: fact.conflict("u_2"), action_date: fact.unknown() },
  { user_id: fact.known("u_3", "session"), action_date: fact.unknown() },
];
for (const state of turns) { try { book(state, "room_9"); } catch {} }
`;

function runAgent(name: string, options = "{}"): string {
  const log = join(box.dir, `${name}.jsonl`);
  const script = box.file(`${name}.mjs`, AGENT(log, options));
  execFileSync(process.execPath, [script], { stdio: "pipe" });
  return log;
}

describe("ingest of a gate decision log", () => {
  it("reads the module's own log into a gate-log run, keeps the good lines around a cut-off one", async () => {
    if (!existsSync(GATE) || !existsSync(NODE))
      execFileSync(process.execPath, [join(ROOT, "scripts", "build-gate.js")], { cwd: ROOT, stdio: "pipe" });
    const log = runAgent("agent", '{ run: "agent-gate", model: "qwen3" }');
    // The agent died mid-line; the next start of the sink finishes that line and goes on.
    appendFileSync(log, '{"schema":"assumeprobe/gate@1","id":"cut');
    runAgent("agent", '{ run: "agent-gate", model: "qwen3" }');
    const r = await box.run(["ingest", log, "--json"]);
    expect(r.code).toBe(1);
    const s = JSON.parse(r.lines.at(-1) ?? "");
    expect(s).toMatchObject({
      records: 9,
      ingested: 8,
      rejected: 1,
      runs: [{ name: "agent-gate", ingested: 8 }],
    });
    expect(s.errors).toHaveLength(1);
    expect(s.errors[0]).toMatchObject({ line: 5 });
    const rows = box.query<{ gate: string; form: string; model: string }>(
      "SELECT t.gate, t.form, r.model FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.kind = 'gate_log' ORDER BY t.id",
    );
    expect(rows.map((x) => x.gate)).toEqual([
      "allow",
      "block",
      "block",
      "block",
      "allow",
      "block",
      "block",
      "block",
    ]);
    expect(new Set(rows.map((x) => `${x.form}/${x.model}`))).toEqual(new Set(["gate_log/qwen3"]));
    // The module and our gate are one implementation: nothing mismatches.
    const flagged = box.query(
      "SELECT 1 FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = 'agent-gate' AND t.result LIKE '%gate_mismatch%'",
    );
    expect(flagged).toEqual([]);
    // Nothing to re-score: a probe scores no decision.
    const rescore = await box.run(["rescore", "agent-gate"]);
    expect(rescore.code).toBe(2);
    expect(rescore.stderr).toContain('run "agent-gate" is a gate-log run');
  });

  it("reads a redacted log: names and statuses kept, no value stored", async () => {
    const log = runAgent("redacted", "{ redact: true }");
    const r = await box.run(["ingest", log, "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.lines.at(-1) ?? "")).toMatchObject({ ingested: 4, rejected: 0 });
    const rows = box.query<{ gate: string; original: string }>(
      `SELECT t.gate, CAST(${originalOf("t.")} AS TEXT) AS original FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = 'redacted' ORDER BY t.id`,
    );
    expect(rows.map((x) => x.gate)).toEqual(["allow", "block", "block", "block"]);
    for (const x of rows) {
      expect(x.original).toContain('"redacted":true');
      expect(x.original).not.toMatch(/u_1|u_2|2026-09-08|room_9/);
    }
  });

  it("reads the Python twin's log: the same verdicts as ours, keyword arguments kept", async () => {
    const twin = twinFolder();
    try {
      const log = join(box.dir, "py-gate.jsonl");
      runPython(
        twin.dir,
        `
from assumeprobe_gate import Fact, file_sink, side_effect
@side_effect("user_id", "action_date", log=file_sink(${JSON.stringify(log)}, run="py-agent"))
def book_slot(state, room, note=None):
    return room
book_slot({"user_id": Fact.known("u_1"), "action_date": Fact.known("2026-09-08")}, "room_9", note="window")
for state in ({"user_id": Fact.known("u_1"), "action_date": Fact.unknown()}, {"user_id": Fact.conflict("u_2")}):
    try:
        book_slot(state, "room_9")
    except Exception:
        pass
`,
      );
      const r = await box.run(["ingest", log, "--json"]);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.lines.at(-1) ?? "")).toMatchObject({ ingested: 3, rejected: 0 });
      const rows = box.query<{ gate: string; result: string; response: string }>(
        "SELECT t.gate, t.result, t.response FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = 'py-agent' ORDER BY t.id",
      );
      expect(rows.map((x) => x.gate)).toEqual(["allow", "block", "block"]);
      expect(rows.map((x) => JSON.parse(x.result).flags)).toEqual([[], [], []]);
      expect(JSON.parse(rows[2].result).gate).toEqual({
        verdict: "block",
        unknown: ["action_date"],
        conflict: ["user_id"],
        next: "stop",
      });
      expect(JSON.parse(rows[0].response).tool_calls[0]).toEqual({
        name: "book_slot",
        arguments: { arguments: ["room_9"], keyword_arguments: { note: "window" } },
      });
    } finally {
      twin.remove();
    }
  });
});
