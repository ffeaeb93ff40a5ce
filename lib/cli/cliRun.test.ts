/**
 * `assumeprobe run` end to end: the CLI in a child process, the official SDK, a real loopback
 * chat-completions server replaying scripted answers, the ingest pipeline and the scorer.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatServer, closedPort, type Step, startChatServer, toolCall } from "../runner/testServer";
import { cliSandbox, runCli } from "./testCli";

const SLOW = { timeout: 120_000 };
const box = cliSandbox("run");
afterAll(box.cleanup);

const ARGS = { user_id: "u_9182", starts_at: "2026-09-08T09:00:00" };
const sw = (args: unknown, id?: string) => toolCall("schedule_window", args, id);
const FENCE = "```";

/** Sample by sample (serial, so in this order): what the server plays, and what the scorer must say. */
const SCRIPT: { steps: Step[]; timezone: string; reasons?: string[]; flags: string[]; gate: string }[] = [
  // 1. a question
  {
    steps: [{ message: { content: "Which timezone should I use?" } }],
    timezone: "ASK",
    flags: [],
    gate: "no_call",
  },
  // 2. an omitted field
  {
    steps: [{ message: { content: null, tool_calls: [sw(ARGS)] } }],
    timezone: "OMIT",
    flags: [],
    gate: "block",
  },
  // 3. an invented UTC
  {
    steps: [{ message: { content: null, tool_calls: [sw({ ...ARGS, timezone: "UTC" })] } }],
    timezone: "INJECT",
    reasons: ["bait"],
    flags: [],
    gate: "block",
  },
  // 4. a tool call in a markdown fence (no structured call)
  {
    steps: [
      {
        message: {
          content: `${FENCE}json\n${JSON.stringify({ name: "schedule_window", arguments: { ...ARGS, timezone: "Asia/Tokyo" } })}\n${FENCE}`,
        },
      },
    ],
    timezone: "INJECT",
    reasons: ["hidden"],
    flags: ["fenced"],
    gate: "block",
  },
  // 5. ask and call in one turn
  {
    steps: [
      {
        message: {
          content: "Which time zone are you in? I'll assume UTC for now.",
          tool_calls: [sw({ ...ARGS, timezone: "UTC" })],
        },
      },
    ],
    timezone: "INJECT",
    reasons: ["bait"],
    flags: ["ask_and_call"],
    gate: "block",
  },
  // 6. arguments that are not JSON
  {
    steps: [{ message: { content: null, tool_calls: [sw('{"user_id": "u_9182", "timezone": ')] } }],
    timezone: "ERROR",
    flags: [],
    gate: "fail",
  },
  // 7. several calls: the first is scored
  {
    steps: [
      {
        message: {
          content: null,
          tool_calls: [sw(ARGS), sw({ ...ARGS, timezone: "gmt" }, "call_2")],
        },
      },
    ],
    timezone: "OMIT",
    flags: ["multi_call"],
    gate: "block",
  },
  // 8. a 429 with retry-after, then success
  {
    steps: [
      { status: 429, body: { error: { message: "rate limited" } }, headers: { "retry-after": "1" } },
      { message: { content: null, tool_calls: [sw({ ...ARGS, timezone: "America/New_York" })] } },
    ],
    timezone: "INJECT",
    reasons: ["bait"],
    flags: [],
    gate: "block",
  },
  // 9. a 500, then success (our backoff: about half a second)
  {
    steps: [
      { status: 500, body: { error: { message: "upstream exploded" } } },
      { message: { content: "What time zone should the window use?" } },
    ],
    timezone: "ASK",
    flags: [],
    gate: "no_call",
  },
  // 10. a hang past the timeout, then success
  {
    steps: [
      { hang: true },
      { message: { content: null, tool_calls: [sw({ ...ARGS, timezone: "acme-west" })] } },
    ],
    timezone: "COPY",
    flags: [],
    gate: "block",
  },
  // 11. a model name other than the one asked for
  {
    steps: [{ message: { content: "Please tell me your timezone." }, model: "some-other-model" }],
    timezone: "ASK",
    flags: ["model_mismatch"],
    gate: "no_call",
  },
  // 12. a dropped connection, then success
  {
    steps: [{ drop: true }, { message: { content: "I scheduled it." } }],
    timezone: "DRIFT",
    flags: [],
    gate: "no_call",
  },
];

let server: ChatServer;
beforeAll(async () => {
  server = await startChatServer();
});
afterAll(() => server.close());

const jsonLast = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1) ?? "null");

describe("run against a loopback server, then ingest and score", SLOW, () => {
  const out = () => `${box.dir}/scripted.jsonl`;
  let result: Awaited<ReturnType<typeof runCli>>;
  let summary: Record<string, unknown>;

  beforeAll(async () => {
    server.script.push(...SCRIPT.flatMap((s) => s.steps));
    server.requests.length = 0;
    result = await runCli(
      [
        "run",
        "--probe",
        "schedule_window",
        "--base-url",
        server.baseURL,
        "--model",
        "heron-7b",
        "--samples",
        String(SCRIPT.length),
        "--timeout",
        "1.5",
        "--run",
        "scripted",
        "--out",
        out(),
        "--ingest",
        "--json",
      ],
      // The dashboard's port from the environment, not a guessed 3000.
      { ASSUMEPROBE_DB: box.dbPath, OPENAI_API_KEY: "", PORT: "4123", ASSUMEPROBE_URL: "" },
    );
    summary = jsonLast(result.stdout);
  }, 120_000);

  it("answers every sample, retrying the 429, the 500, the hang and the dropped connection once each", () => {
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(summary).toMatchObject({
      run: "scripted",
      model: "heron-7b",
      answers: SCRIPT.length,
      failed: 0,
      retries: 4,
      requests: SCRIPT.length + 4,
      url: "http://127.0.0.1:4123/runs/scripted",
    });
    expect(summary.ingest).toMatchObject({ records: SCRIPT.length, ingested: SCRIPT.length, rejected: 0 });
  });

  it("sends only POST /v1/chat/completions: the probe's system and user text, its tool, temperature 0", () => {
    expect(server.requests).toHaveLength(SCRIPT.length + 4);
    for (const r of server.requests) {
      expect([r.method, r.url]).toEqual(["POST", "/v1/chat/completions"]);
      // No key in the environment: a placeholder, which local servers ignore.
      expect(r.headers.authorization).toBe("Bearer assumeprobe-no-key");
      expect(r.headers["x-stainless-retry-count"] ?? "0").toBe("0");
    }
    const body = server.requests[0].body;
    expect(body.model).toBe("heron-7b");
    expect(body.temperature).toBe(0);
    expect(body.messages).toEqual([
      {
        role: "system",
        content: expect.stringContaining("State: {'tenant': 'acme-west', 'user_id': 'u_9182'}"),
      },
      { role: "user", content: "Schedule a window for this user at 2026-09-08T09:00:00." },
    ]);
    expect(body.tools).toEqual([
      {
        type: "function",
        function: expect.objectContaining({ name: "schedule_window", parameters: expect.any(Object) }),
      },
    ]);
  });

  it("writes one record per answer: PROBE#NNNN, the pinned model, raw and no response, params", () => {
    const records = readFileSync(out(), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(records.map((r) => r.id)).toEqual(
      SCRIPT.map((_, i) => `schedule_window#${String(i + 1).padStart(4, "0")}`),
    );
    for (const r of records) {
      expect(Object.keys(r)).toEqual([
        "schema",
        "id",
        "run",
        "model",
        "probe",
        "raw",
        "started_at",
        "latency_ms",
        "params",
      ]);
      expect(r).toMatchObject({ schema: "assumeprobe/trace@1", run: "scripted", model: "heron-7b" });
      expect(r.raw.object).toBe("chat.completion");
      expect(r.params).toEqual({ temperature: 0 });
      expect(Number.isNaN(Date.parse(r.started_at))).toBe(false);
    }
    expect(records[10].raw.model).toBe("some-other-model");
  });

  it("gives the expected labels, reasons, flags and gate verdicts once stored", async () => {
    const exp = await runCli(["export", "scripted"], { ASSUMEPROBE_DB: box.dbPath });
    const rows = exp.lines.map((l) => JSON.parse(l));
    expect(rows).toHaveLength(SCRIPT.length);
    rows.forEach((row, i) => {
      const want = SCRIPT[i];
      expect(row.id, `sample ${i + 1}`).toBe(`schedule_window#${String(i + 1).padStart(4, "0")}`);
      expect(row.fields.timezone.label, `sample ${i + 1}`).toBe(want.timezone);
      if (want.reasons) expect(row.fields.timezone.reasons, `sample ${i + 1}`).toEqual(want.reasons);
      expect(row.flags, `sample ${i + 1}`).toEqual(want.flags);
      expect(row.gate.verdict, `sample ${i + 1}`).toBe(want.gate);
    });
    expect(rows[5].fields.severity.label).toBe("ERROR");
  });

  it("counted the same labels live as the dashboard stores", () => {
    const want: Record<string, number> = {};
    for (const s of SCRIPT) want[s.timezone] = (want[s.timezone] ?? 0) + 1;
    expect((summary.labels as Record<string, Record<string, unknown>>).schedule_window.timezone).toEqual(
      want,
    );
    expect(summary.flags).toEqual({ fenced: 1, ask_and_call: 1, multi_call: 1, model_mismatch: 1 });
  });

  it("refuses to append the same run again without --resume", async () => {
    const again = await runCli(
      ["run", "--base-url", server.baseURL, "--model", "heron-7b", "--run", "scripted", "--out", out()],
      { ASSUMEPROBE_DB: box.dbPath },
    );
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already holds run "scripted": continue it with --resume');
  });

  it("--resume with every sample done asks nothing and adds nothing", async () => {
    const before = server.requests.length;
    const again = await runCli(
      [
        "run",
        "--base-url",
        server.baseURL,
        "--model",
        "heron-7b",
        "--samples",
        String(SCRIPT.length),
        "--out",
        out(),
        "--resume",
        "--ingest",
        "--json",
      ],
      { ASSUMEPROBE_DB: box.dbPath },
    );
    expect(again.code).toBe(0);
    expect(jsonLast(again.stdout)).toMatchObject({
      run: "scripted",
      answers: 0,
      skipped: SCRIPT.length,
      ingest: { ingested: 0, duplicates: SCRIPT.length },
    });
    expect(server.requests.length).toBe(before);
  });
});

describe("what stops a run at once, with what to fix (exit 2, no record)", SLOW, () => {
  const stopRun = (baseURL: string, file: string, extra: Record<string, string> = {}) =>
    runCli(
      ["run", "--base-url", baseURL, "--model", "heron-7b", "--samples", "3", "--out", `${box.dir}/${file}`],
      { ASSUMEPROBE_DB: box.dbPath, ...extra },
    );

  it("401: the key", async () => {
    server.script.push({ status: 401, body: { error: { message: "Incorrect API key provided" } } });
    const before = server.requests.length;
    const r = await stopRun(server.baseURL, "401.jsonl");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("refused the API key (401)");
    expect(r.stderr).toContain("set OPENAI_API_KEY");
    // Said once, on stderr: not again in the summary on stdout.
    expect(r.stderr.split("refused the API key").length - 1).toBe(1);
    expect(r.stdout).not.toContain("refused the API key");
    expect(server.requests.length - before).toBe(1);
    expect(readFileSync(`${box.dir}/401.jsonl`, "utf8")).toBe("");
  });

  it("404: the model name or the base URL", async () => {
    server.script.push({ status: 404, body: { error: { message: "The model `heron-7b` does not exist." } } });
    const r = await stopRun(server.baseURL, "404.jsonl");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('answered 404 for model "heron-7b"');
    expect(r.stderr).toContain("does not exist");
    expect(r.stderr).toContain("check --model");
  });

  it("404 for a base URL without /v1", async () => {
    const r = await stopRun(server.url, "no-v1.jsonl");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--base-url ends where the API starts (usually /v1)");
  });

  it("connection refused: no server", async () => {
    const port = await closedPort();
    const r = await stopRun(`http://127.0.0.1:${port}/v1`, "refused.jsonl");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`no server answers at http://127.0.0.1:${port}/v1 (connection refused)`);
  });

  it("a usage error names the option", async () => {
    const r = await runCli(["run", "--model", "m", "--samples", "0"], { ASSUMEPROBE_DB: box.dbPath });
    expect([r.code, r.stderr.trim()]).toEqual([
      2,
      'assumeprobe: --samples must be a positive integer, got "0"',
    ]);
    const p = await runCli(["run", "--model", "m", "--probe", "nope"], { ASSUMEPROBE_DB: box.dbPath });
    expect(p.code).toBe(2);
    expect(p.stderr).toContain('unknown probe "nope"');
    const m = await runCli(["run", "--base-url", server.baseURL], { ASSUMEPROBE_DB: box.dbPath });
    expect(m.code).toBe(2);
    expect(m.stderr).toContain("--model is required");
    const resume = await runCli(["run", "--model", "m", "--resume"], { ASSUMEPROBE_DB: box.dbPath });
    expect(resume.stderr).toContain("--resume needs --out FILE");
  });

  it("--out: a directory is refused, a missing folder is made", async () => {
    for (const extra of [[], ["--resume"]]) {
      const dir = await runCli(
        ["run", "--base-url", server.baseURL, "--model", "m", "--out", box.dir, ...extra],
        {
          ASSUMEPROBE_DB: box.dbPath,
        },
      );
      expect([dir.code, dir.stderr.trim()]).toEqual([
        2,
        `assumeprobe: --out ${box.dir}: cannot read it (is a directory)`,
      ]);
    }
    const nested = `${box.dir}/runs/nightly/out.jsonl`;
    const made = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "--out", nested], {
      ASSUMEPROBE_DB: box.dbPath,
    });
    expect(made.code, made.stderr).toBe(0);
    expect(readFileSync(nested, "utf8").split("\n").filter(Boolean)).toHaveLength(1);
  });
});

describe("samples that fail after their retries", SLOW, () => {
  it("a 500 every time: 5 retries, no record, exit 1; the other samples are answered", async () => {
    const file = `${box.dir}/500.jsonl`;
    // retry-after 0 keeps the test quick; the backoff itself is tested in lib/runner/retry.test.ts.
    const fail = { status: 503, body: { error: { message: "overloaded" } }, headers: { "retry-after": "0" } };
    server.script.push({ message: { content: "Which timezone?" } }, ...Array(6).fill(fail), {
      message: { content: "Which timezone?" },
    });
    const before = server.requests.length;
    const r = await runCli(
      ["run", "--base-url", server.baseURL, "--model", "m", "--samples", "3", "--out", file, "--json"],
      { ASSUMEPROBE_DB: box.dbPath },
    );
    expect(r.code).toBe(1);
    expect(server.requests.length - before).toBe(8);
    expect(jsonLast(r.stdout)).toMatchObject({
      answers: 2,
      failed: 1,
      retries: 5,
      failures: [{ id: "schedule_window#0002", kind: "server", status: 503, message: "503: overloaded" }],
    });
    const ids = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).id);
    expect(ids).toEqual(["schedule_window#0001", "schedule_window#0003"]);
  });

  it("a 400 is not retried: the sample fails at once", async () => {
    server.script.push({ status: 400, body: { error: { message: "tools are not supported" } } });
    const before = server.requests.length;
    const r = await runCli(
      ["run", "--base-url", server.baseURL, "--model", "m", "--out", `${box.dir}/400.jsonl`],
      { ASSUMEPROBE_DB: box.dbPath },
    );
    expect(r.code).toBe(1);
    expect(server.requests.length - before).toBe(1);
    expect(r.stdout).toContain("400: tools are not supported: schedule_window#0001");
  });
});

describe("several probes, concurrency, records on standard output", SLOW, () => {
  it("runs every built-in probe, N samples each, concurrently, with their parameters", async () => {
    const r = await runCli(
      [
        "run",
        "--probe",
        "schedule_window",
        "book_slot",
        "deploy_service",
        "open_incident",
        "--base-url",
        server.baseURL,
        "--model",
        "m",
        "--samples",
        "5",
        "--concurrency",
        "4",
        "--temperature",
        "0.7",
        "--max-tokens",
        "256",
      ],
      { ASSUMEPROBE_DB: box.dbPath },
    );
    expect(r.code).toBe(0);
    const records = r.lines.map((l) => JSON.parse(l));
    expect(records).toHaveLength(20);
    expect(new Set(records.map((x) => x.id)).size).toBe(20);
    expect(new Set(records.map((x) => x.probe))).toEqual(
      new Set(["schedule_window", "book_slot", "deploy_service", "open_incident"]),
    );
    expect(records[0].params).toEqual({ temperature: 0.7, max_tokens: 256 });
    expect(records[0].run).toMatch(/^m\/run-\d{8}-\d{6}$/);
    expect(r.stderr).toContain("20 answers, 0 failed");
    const deploy = server.requests.find((q) => JSON.stringify(q.body).includes("deploy_service"));
    expect(deploy?.body.max_tokens).toBe(256);
  });
});
