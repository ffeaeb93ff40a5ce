import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GateDecisionRecordSchema } from "./decisionRecordSchema";
import { fact } from "./facts";
import { fileSink } from "./node";
import { AssumptionError } from "./requireKnown";
import { sideEffect } from "./sideEffect";

const dir = mkdtempSync(join(tmpdir(), "assumeprobe-gate-log-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lines = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));

function book(path: string, options: Parameters<typeof fileSink>[1] = {}) {
  return sideEffect(
    ["user_id", "action_date"],
    function book_slot() {
      return "booked";
    },
    { log: fileSink(path, options) },
  );
}

describe("fileSink", () => {
  it("appends one valid JSON line per decision, allowed and blocked, into a folder it creates", () => {
    const path = join(dir, "new", "folder", "gate.jsonl");
    const gated = book(path);
    expect(gated({ user_id: fact.known("u_1"), action_date: fact.known("2026-09-08") })).toBe("booked");
    expect(() => gated({ user_id: fact.known("u_1") })).toThrow(AssumptionError);
    const [allowed, blocked] = lines(path);
    expect(allowed).toMatchObject({ tool: "book_slot", gate: { verdict: "allow" } });
    expect(blocked).toMatchObject({ gate: { verdict: "block", unknown: ["action_date"], next: "ask" } });
    for (const r of [allowed, blocked]) expect(GateDecisionRecordSchema.safeParse(r).success).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("redacts values when asked, keeping names, statuses and the verdict, and adds run and model", () => {
    const path = join(dir, "redacted.jsonl");
    const gated = book(path, { redact: true, run: "agent-prod", model: "gpt-4o" });
    expect(() =>
      gated({ user_id: fact.known("u_secret", "session"), action_date: fact.conflict("Tue") }),
    ).toThrow();
    const [r] = lines(path);
    expect(r).toMatchObject({
      run: "agent-prod",
      model: "gpt-4o",
      redacted: true,
      world_state: {
        user_id: { status: "known", value: "[redacted]", source: "session" },
        action_date: { status: "conflict", value: "[redacted]" },
      },
      gate: { verdict: "block", conflict: ["action_date"], next: "stop" },
    });
    expect(readFileSync(path, "utf8")).not.toMatch(/u_secret|Tue/);
    expect(GateDecisionRecordSchema.safeParse(r).success).toBe(true);
  });

  it("keeps appending to an existing log, and starts a new line after one a crash cut off", () => {
    const path = join(dir, "existing.jsonl");
    appendFileSync(path, '{"schema":"assumeprobe/gate@1"}\n{"schema":"assump');
    book(path)({ user_id: fact.known(1), action_date: fact.known(2) });
    book(path)({ user_id: fact.known(1), action_date: fact.known(2) });
    const text = readFileSync(path, "utf8").split("\n");
    expect(text[1]).toBe('{"schema":"assump');
    expect(JSON.parse(text[2]).gate.verdict).toBe("allow");
    expect(JSON.parse(text[3]).gate.verdict).toBe("allow");
    expect(text[4]).toBe("");
  });
});
