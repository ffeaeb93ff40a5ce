import { afterAll, describe, expect, it } from "vitest";
import { A, agentTurnsFile, B } from "../testing/otlpFiles";
import { cliSandbox } from "./testCli";

const box = cliSandbox("agentturns");
afterAll(box.cleanup);
const SLOW = { timeout: 120_000 };

describe("assumeprobe ingest of an agent's OTLP file", SLOW, () => {
  it("stores every generation, flags the agent steps and counts one generation per turn", async () => {
    const file = box.file("agent.otlp.jsonl", agentTurnsFile());
    const r = await box.run(["ingest", file, "--json", "--run", "agent"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout.trim().split("\n").at(-1) as string);
    expect(summary.runs).toEqual([expect.objectContaining({ name: "agent", ingested: 5 })]);
    const flagged = box
      .query<{ ext_id: string; result: string }>("SELECT ext_id, result FROM traces ORDER BY ext_id")
      .map((t) => [t.ext_id, JSON.parse(t.result).flags.includes("agent_step")]);
    expect(flagged).toEqual([
      [`${A}:a1`, true],
      [`${A}:a2`, false],
      [`${A}:a3`, true],
      [`${B}:b1`, true],
      [`${B}:b2`, false],
    ]);
    // check reads the rates: two generations count, A's call (INJECT) and B's question (ASK).
    const c = await box.run(["check", "agent", "--max", "INJECT=0.4", "--field", "timezone", "--json"]);
    const out = JSON.parse(c.stdout.trim());
    const rates = (out.rates as { label: string; rate: { k: number; n: number } }[]).map((x) => [
      x.label,
      x.rate.k,
      x.rate.n,
    ]);
    expect(rates).toEqual([
      ["INJECT", 1, 2],
      ["ASK", 1, 2],
    ]);
    expect(c.code).toBe(1);
    const text = await box.run(["check", "agent", "--max", "INJECT=0.6", "--field", "timezone"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("check agent (gpt-4o, 5 traces, 3 of them agent steps not counted)");
    expect(text.stdout).toContain("INJECT 50.0% [9.5%, 90.5%] 1/2");
  });
});
