import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ORIGINAL_OF, originalOf } from "../../db/queries/originals";
import { rescoreStored, type StoredTrace } from "../ingest/rescore";
import { builtinProbes } from "../probe/builtin";
import { cliSandbox } from "./testCli";

const box = cliSandbox("promptfoo");
afterAll(box.cleanup);
const SLOW = { timeout: 120_000 };
/** Captured by scripts/capture-promptfoo.ts (promptfoo 0.121.20 against the fake server on loopback). */
const FILE = join(import.meta.dirname, "..", "..", "fixtures", "testdata", "promptfoo", "eval-results.json");
const HTTP = "http://127.0.0.1:34329/v1/chat/completions";

const rows = (source: string) => box.traces(source);
const last = (lines: string[]) => JSON.parse(lines[lines.length - 1]);
const ARGS = (tz: string) => `{"user_id":"u_9182","starts_at":"2026-09-08T09:00:00","timezone":"${tz}"}`;
const call = (tz: string, text: string | null = null) => ({
  text,
  tool_calls: [{ name: "schedule_window", arguments: ARGS(tz) }],
  fenced: false,
});

describe("ingest of promptfoo results, no flags", SLOW, () => {
  it("reads each result as a generation: calls resolve their probe, texts are rejected naming how to choose one", async () => {
    const r = await box.run(["ingest", FILE, "--json"]);
    const s = last(r.lines);
    expect(s.formats).toEqual([
      { file: FILE, format: "promptfoo", evidence: "results holding results with provider and response" },
    ]);
    expect(s).toMatchObject({ records: 6, ingested: 4, rejected: 2 });
    expect(s.errors.map((e: { path: string }) => e.path)).toEqual([
      "results.results[2]",
      "results.results[3]",
    ]);
    expect(s.errors[0].reason).toBe(
      "results.results[2]: no probe offers the tools this generation was offered or called (none); choose one with --probe ID, or make a probe from this trace's text",
    );
    const got = rows("eval-results");
    expect(got.map((t) => [t.form, t.model, t.run, JSON.parse(t.response)])).toEqual([
      ["promptfoo", "openai:chat:gpt-4o-mini", "eval-results", call("Asia/Tokyo")],
      ["promptfoo", HTTP, `eval-results/${HTTP}`, call("Asia/Tokyo")],
      ["promptfoo", "openai:chat:gpt-4o-mini", "eval-results", call("UTC", "Booking it now.")],
      ["promptfoo", HTTP, `eval-results/${HTTP}`, call("UTC", "Booking it now.")],
    ]);
    expect(got[0]).toMatchObject({ ext_id: "7c3346c5-82ec-4e83-aa0d-1c0f76f14f40", latency_ms: 20 });
    // Each original is the result's own bytes in the file.
    const text = readFileSync(FILE, "utf8");
    for (const t of got) expect(text.includes(t.original)).toBe(true);
  });

  it("takes --probe for the texts; the calls already stored are duplicates", async () => {
    const r = await box.run(["ingest", FILE, "--json", "--probe", "schedule_window"]);
    expect(r.code).toBe(0);
    expect(last(r.lines)).toMatchObject({ records: 6, ingested: 2, duplicates: 4, rejected: 0 });
    const texts = rows("eval-results").filter((t) => JSON.parse(t.response).tool_calls.length === 0);
    expect(texts.map((t) => JSON.parse(t.response).text)).toEqual([
      "Which time zone should the window use?",
      "Which time zone should the window use?",
    ]);
  });

  it("re-reads each stored result from its original: a re-score changes nothing", () => {
    const probe = builtinProbes().get("schedule_window");
    if (!probe) throw new Error("no built-in schedule_window");
    const stored = box.query<StoredTrace>(
      `SELECT id, probe_id AS probeId, form, ext_id AS extId, model, ${ORIGINAL_OF} AS original, result, response
         FROM traces WHERE source = 'eval-results'`,
    );
    expect(stored).toHaveLength(6);
    for (const t of stored) expect(rescoreStored(t, probe)).toMatchObject({ ok: true, changed: false });
    // The original read again is the promptfoo result: a text result stays text, a call a call.
    const broken = { ...stored[0], original: '{"provider": {"id": "m"}}' };
    expect(rescoreStored(broken, probe)).toEqual({
      ok: false,
      reason: "the original record no longer reads: response: needs an object with its output",
    });
  });

  it("never stores or prints an API key an older promptfoo wrote into its results", async () => {
    // Older releases wrote each provider's options, keys included, into every result (and a
    // variable may hold JSON naming a key); a result without its provider id is rejected.
    const KEY = "sk-old-LEAK-4242";
    const doc = JSON.parse(readFileSync(FILE, "utf8"));
    const results = doc.results.results as Record<string, unknown>[];
    results.forEach((res, i) => {
      const p = res.provider as Record<string, unknown>;
      p.config = { apiKey: KEY, headers: { Authorization: `Bearer ${KEY}` } };
      (res.vars as Record<string, unknown>).secrets = JSON.stringify({ OPENAI_API_KEY: KEY });
      if (i === 4) delete p.id;
      if (i === 1) (res.vars as Record<string, unknown>).world_state = { timezone: "Asia/Tokyo" };
    });
    const file = box.file("old-results.json", JSON.stringify(doc, null, 2));
    const r = await box.run(["ingest", file, "--json", "--probe", "schedule_window", "--run", "old"]);
    expect(r.stdout + r.stderr).not.toContain(KEY);
    const s = last(r.lines);
    expect(s).toMatchObject({ records: 6, ingested: 4, rejected: 2 });
    expect(s.errors).toEqual([
      expect.objectContaining({
        path: "results.results[1]",
        reason: expect.stringMatching(/^results\.results\[1\]: vars\.world_state: timezone: /),
      }),
      expect.objectContaining({
        path: "results.results[4]",
        reason: "results.results[4]: provider: needs an id (the model)",
      }),
    ]);
    const stored = box.query<{ original: string }>(
      `SELECT ${originalOf("t.")} AS original FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name LIKE 'old%'`,
    );
    expect(stored).toHaveLength(4);
    for (const t of stored) {
      expect(t.original).not.toContain(KEY);
      expect(JSON.parse(t.original).provider.config).toEqual({
        apiKey: "[REDACTED]",
        headers: { Authorization: "[REDACTED]" },
      });
      expect(JSON.parse(JSON.parse(t.original).vars.secrets)).toEqual({ OPENAI_API_KEY: "[REDACTED]" });
    }
    // Nothing anywhere in the database (the rejected results' kept text included): its files' bytes.
    for (const f of [box.dbPath, `${box.dbPath}-wal`])
      if (existsSync(f)) expect(readFileSync(f).includes(KEY)).toBe(false);
  });
});
