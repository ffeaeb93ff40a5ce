/** `assumeprobe fuzz-gate` and `assumeprobe check` as scripts call them. */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { GateFactory } from "../runner/fuzzGate";
import { type ChatServer, startChatServer } from "../runner/testServer";
import { runFuzzGate } from "./commands/fuzzGate";
import { cliSandbox, jsonl, runCli } from "./testCli";

const SLOW = { timeout: 120_000 };
const box = cliSandbox("fuzz-check");
afterAll(box.cleanup);
const env = { ASSUMEPROBE_DB: box.dbPath };
const last = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1) ?? "null");
const GATE_OF: Record<string, string> = { booked: "allow", blocked: "block", skipped: "block" };

describe("fuzz-gate --offline", SLOW, () => {
  it("3,000 blobs: zero leaks, every blob a record that ingests, each with its blob and the gate's verdict", async () => {
    const out = `${box.dir}/fuzz.jsonl`;
    const r = await runCli(
      ["fuzz-gate", "--offline", "--seed", "3", "--n", "3000", "--out", out, "--ingest", "--json"],
      // The link's address from the environment: here the dashboard's own URL.
      { ...env, ASSUMEPROBE_URL: "http://dash.test:8088/", PORT: "" },
    );
    expect(r.code, r.stderr).toBe(0);
    const s = last(r.stdout);
    expect(s).toMatchObject({
      blobs: 3000,
      leaks: 0,
      crashed: 0,
      run: "offline-fuzzer/seed-3",
      model: "offline-fuzzer",
    });
    expect(s.blocked + s.booked + s.skipped).toBe(3000);
    expect(Object.values(s.skip_reasons as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(
      s.skipped,
    );
    expect(s.ingest).toEqual({ records: 3000, ingested: 3000, rejected: 0 });
    expect(s.url).toBe("http://dash.test:8088/runs/offline-fuzzer%2Fseed-3");

    const records = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const exported = (await runCli(["export", "offline-fuzzer/seed-3"], env)).lines.map((l) => JSON.parse(l));
    expect(exported).toHaveLength(3000);
    const byId = new Map(records.map((x) => [x.id, x]));
    for (const row of exported) {
      const rec = byId.get(row.id);
      // The dashboard's gate, computed from the stored world state, agrees with the fuzzer's.
      expect(row.gate.verdict, row.id).toBe(GATE_OF[rec.params.fuzz.verdict]);
      expect(typeof rec.params.blob).toBe("string");
      expect("world_state" in rec).toBe(rec.params.fuzz.verdict !== "skipped");
    }
  });

  it("prints records on standard output when there is no --out, the counts last", async () => {
    const r = await runCli(["fuzz-gate", "--offline", "--n", "25", "--json"], env);
    expect(r.code).toBe(0);
    expect(r.lines).toHaveLength(26);
    expect(JSON.parse(r.lines[0]).id).toBe("book_slot#0001");
    expect(Object.keys(last(r.stdout)).slice(0, 5)).toEqual([
      "blobs",
      "blocked",
      "booked",
      "skipped",
      "leaks",
    ]);
  });

  it("exits 1 on a leak: a broken gate double is caught", async () => {
    const leaky: GateFactory = (client) => ({
      bookSlot: (s) =>
        client.book({
          user_id: s.user_id?.value,
          resource_id: s.resource_id?.value,
          action_date: s.action_date?.value,
        }),
    });
    const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const code = await runFuzzGate(
        {
          offline: true,
          seed: 1,
          n: 200,
          timeout: 60,
          retries: 5,
          concurrency: 1,
          json: true,
          out: `${box.dir}/leak.jsonl`,
        },
        leaky,
      );
      expect(code).toBe(1);
      const summary = JSON.parse(String(write.mock.calls.at(-1)?.[0]));
      expect(summary.leaks).toBeGreaterThan(0);
      expect(err.mock.calls.some((c) => String(c[0]).includes("LEAK book_slot#"))).toBe(true);
    } finally {
      write.mockRestore();
      err.mockRestore();
    }
  });

  it("usage errors: a mode is required, and only one", async () => {
    const none = await runCli(["fuzz-gate"], env);
    expect([none.code, none.stderr]).toEqual([2, expect.stringContaining("or --offline")]);
    const both = await runCli(["fuzz-gate", "--offline", "--model", "m"], env);
    expect([both.code, both.stderr]).toEqual([2, expect.stringContaining("not both")]);
    const dir = await runCli(["fuzz-gate", "--offline", "--out", box.dir], env);
    expect([dir.code, dir.stderr]).toEqual([2, expect.stringContaining("cannot read it (is a directory)")]);
  });
});

describe("fuzz-gate against an endpoint", SLOW, () => {
  let server: ChatServer;
  const known = (v: string) => ({ status: "known", value: v, source: "test" });
  beforeAll(async () => {
    server = await startChatServer([
      {
        message: {
          content: JSON.stringify({
            user_id: known("u_1"),
            resource_id: known("room_9"),
            action_date: { status: "unknown" },
          }),
        },
      },
      { message: { content: `\`\`\`json\n${JSON.stringify({ user_id: known("u_1") })}\n\`\`\`` } },
      {
        message: {
          content: JSON.stringify({
            user_id: known("u_1"),
            resource_id: known("room_9"),
            action_date: known("2026-09-08"),
          }),
        },
      },
    ]);
  });
  afterAll(() => server.close());

  it("asks the article's prompt, feeds each answer through the gate, keeps the payload", async () => {
    const out = `${box.dir}/online.jsonl`;
    const r = await runCli(
      ["fuzz-gate", "--base-url", server.baseURL, "--model", "sloppy-1b", "--n", "3", "--out", out, "--json"],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(last(r.stdout)).toMatchObject({
      blobs: 3,
      blocked: 1,
      booked: 1,
      skipped: 1,
      leaks: 0,
      failed: 0,
      model: "sloppy-1b",
    });
    expect(server.requests[0].body.messages).toEqual([
      { role: "user", content: expect.stringContaining("Return ONLY JSON") },
    ]);
    expect(server.requests[0].body).not.toHaveProperty("temperature");
    const recs = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(recs.map((x) => x.params.fuzz.verdict)).toEqual(["blocked", "skipped", "booked"]);
    expect(recs[0].raw.object).toBe("chat.completion");
    expect(recs[0].run).toMatch(/^sloppy-1b\/fuzz-\d{8}-\d{6}$/);
  });
});

describe("check", SLOW, () => {
  const ARGS = { user_id: "u_9182", starts_at: "2026-09-08T09:00:00" };
  const traces = (inject: number, ask: number, run: string) =>
    jsonl([
      ...Array.from({ length: inject }, (_, i) => ({
        id: `i${i}`,
        run,
        model: "m",
        response: { tool_call: { name: "schedule_window", arguments: { ...ARGS, timezone: "UTC" } } },
      })),
      ...Array.from({ length: ask }, (_, i) => ({
        id: `a${i}`,
        run,
        model: "m",
        response: { text: "Which timezone?" },
      })),
    ]);
  beforeAll(async () => {
    const base = box.file("base.jsonl", traces(10, 90, "base"));
    const worse = box.file("worse.jsonl", traces(30, 70, "worse"));
    const same = box.file("same.jsonl", traces(12, 88, "same"));
    const r = await runCli(["ingest", base, worse, same, "--json"], env);
    expect(r.code).toBe(0);
  }, 60_000);

  it("passes and exits 0 when every rate is under its maximum, printing each with its interval", async () => {
    const r = await runCli(["check", "base", "--max", "INJECT=0.2", "--field", "timezone"], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("INJECT 10.0% [5.5%, 17.4%] 10/100 · max 20.0%: ok");
    expect(r.stdout).toContain("ASK    90.0% [82.6%, 94.5%] 90/100");
    expect(r.stdout).not.toContain("severity");
    expect(r.lines.at(-1)).toBe("pass: every rate within its limits");
  });

  it("fails and exits 1 over a maximum, per field", async () => {
    const r = await runCli(["check", "worse", "--max", "INJECT=0.2", "--max", "drift=0.5"], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("INJECT 30.0% [21.9%, 39.6%] 30/100 · max 20.0%: FAIL");
    expect(r.stdout).toContain("severity (n=100)");
    // The 70 questions name the timezone, not the severity: DRIFT for severity.
    expect(r.lines.at(-1)).toBe("FAIL: timezone INJECT, severity DRIFT");
  });

  it("--against fails on a rise beyond sampling noise, passes one within it", async () => {
    const worse = await runCli(["check", "worse", "--against", "base", "--json"], env);
    expect(worse.code).toBe(1);
    const j = last(worse.stdout);
    expect(j).toMatchObject({ run: "worse", against: "base", pass: false, failures: 1 });
    const inject = j.rates.find(
      (x: { field: string; label: string }) => x.field === "timezone" && x.label === "INJECT",
    );
    expect(inject.baseline).toMatchObject({ rose: true, rate: { k: 10, n: 100 } });
    const same = await runCli(["check", "same", "--against", "base"], env);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain("+2.0 pt (within sampling noise)");
  });

  it("exits 2 for an unknown run, an unknown field, a bad rule or nothing to check", async () => {
    for (const [args, msg] of [
      [["check", "nope", "--max", "INJECT=0.1"], 'unknown run "nope"'],
      [["check", "base", "--against", "nope"], 'unknown baseline run (--against) "nope"'],
      [
        ["check", "base", "--field", "region", "--max", "INJECT=0.1"],
        'has no traces probing field "region" (its fields: timezone, severity)',
      ],
      [["check", "base", "--max", "INJECT=10%"], "the rate is a fraction from 0 to 1"],
      [["check", "base"], "nothing to check"],
    ] as const) {
      const r = await runCli([...args], env);
      expect([r.code, r.stderr], args.join(" ")).toEqual([2, expect.stringContaining(msg)]);
    }
  });
});
