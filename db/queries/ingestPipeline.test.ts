import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { BATCH_BYTES, describeFailure, ingestSources, type SourceFailure } from "../../lib/ingest/pipeline";
import { ARGS, inconsistencies, ingestPaths, ingestText, tempDb, traceLine } from "../testing/ingest";
import { summaryChecker } from "../testing/ingestSummary";
import { createIngestStore } from "./ingestStore";

const { db, dir, cleanup } = tempDb("pipeline");
afterAll(cleanup);
const q = db.sqlite;

/** Every summary adds up, and the database stays consistent after every ingest. */
const checked = summaryChecker(q);

const tracesOf = (run: string) =>
  q
    .prepare(
      `SELECT t.line, t.labels, t.result, t.form, t.model, t.probe_version AS version, t.recorded
       FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = ? ORDER BY t.id`,
    )
    .all(run) as {
    line: number;
    labels: string;
    result: string;
    form: string;
    model: string;
    version: number;
    recorded: string | null;
  }[];
const labelsOf = (run: string) => tracesOf(run).map((t) => JSON.parse(t.labels));
const run = (name: string) =>
  q.prepare("SELECT * FROM runs WHERE name = ?").get(name) as
    | { model: string; trace_count: number; rejected_count: number; mismatch_count: number }
    | undefined;

describe("bad records", () => {
  const big = traceLine({ pad: "x".repeat(5000) });
  const lines = [
    traceLine({}, { timezone: "UTC" }),
    "this is not json",
    "[1, 2, 3]",
    traceLine({ latency_ms: "fast" }),
    JSON.stringify({ probe: "schedule_window", response: { text: 5 } }),
    traceLine({ world_state: { timezone: { status: "maybe" } } }),
    traceLine({ probe: "no_such_probe" }),
    big,
    traceLine({}, { timezone: "Asia/Tokyo" }),
    JSON.stringify({ response: { tool_call: { name: "schedule_window", arguments: "{not json" } } }),
  ];
  const file = `${lines.join("\n")}\n`;
  const expected = [
    [2, /^not JSON: /],
    [3, /^the record is an array, not an object$/],
    [4, /latency_ms/],
    [5, /^response: response\.text must be a string or null, got a number$/],
    [6, /^world_state\.timezone\.status: /],
    [7, /^unknown probe "no_such_probe"$/],
    [8, new RegExp(`^the line is ${big.length} bytes, over the limit of 4096$`)],
  ] as const;

  it("stores each with file, line, reason and raw text, and keeps the good records around them", async () => {
    const s = checked(await ingestText(db, "dir/bad.jsonl", file, { maxRecordBytes: 4096 }));
    expect(s).toMatchObject({ records: 10, ingested: 3, duplicates: 0, rejected: 7 });
    expect(s.runs).toEqual([{ name: "bad", ingested: 3 }]);
    expect(s.errors.map((e) => e.line)).toEqual(expected.map(([l]) => l));
    s.errors.forEach((e, i) => {
      expect(e.file).toBe("dir/bad.jsonl");
      expect(e.reason).toMatch(expected[i][1]);
    });
    const rows = q
      .prepare("SELECT file, source, line, reason, raw FROM ingest_errors ORDER BY line")
      .all() as { file: string; source: string; line: number; reason: string; raw: string }[];
    expect(rows.map((r) => [r.file, r.source, r.line])).toEqual(
      expected.map(([l]) => ["dir/bad.jsonl", "bad", l]),
    );
    rows.forEach((r, i) => {
      expect(r.reason).toMatch(expected[i][1]);
      // The oversized line is never held whole: its first bytes (up to the limit) are its text.
      expect(r.raw).toBe(r.line === 8 ? lines[7].slice(0, 4096) : lines[r.line - 1]);
    });
    expect(tracesOf("bad").map((t) => t.line)).toEqual([1, 9, 10]);
    expect(run("bad")?.rejected_count).toBe(7);
  });

  it("labels a call whose arguments do not parse ERROR, as a good record", () => {
    const t = tracesOf("bad")[2];
    expect(JSON.parse(t.labels)).toEqual({ timezone: "ERROR", severity: "ERROR" });
    expect(JSON.parse(t.result).gate.verdict).toBe("fail");
    expect(t.form).toBe("trace");
  });

  it("reports them again on re-ingest without storing or counting them twice", async () => {
    const s = checked(await ingestText(db, "dir/bad.jsonl", file, { maxRecordBytes: 4096 }));
    expect(s).toMatchObject({
      records: 10,
      ingested: 0,
      duplicates: 3,
      rejected: 7,
      runs: [{ name: "bad", ingested: 0 }],
    });
    expect(s.errors.map((e) => e.line)).toEqual(expected.map(([l]) => l));
    expect(q.prepare("SELECT count(*) FROM ingest_errors").pluck().get()).toBe(7);
    expect(run("bad")).toMatchObject({ trace_count: 3, rejected_count: 7 });
  });

  it("rejects a world_state that is not an object of facts", async () => {
    const s = checked(await ingestText(db, "ws.jsonl", `${traceLine({ world_state: "known" })}\n`));
    expect(s.rejected).toBe(1);
    expect(s.errors[0].reason).toMatch(/^world_state: /);
  });

  it("ends a batch at BATCH_BYTES of input, however few records it holds", async () => {
    const pad = "x".repeat(BATCH_BYTES / 3);
    const lines = Array.from({ length: 7 }, (_, i) => traceLine({ id: `big-${i}`, pad }));
    const store = createIngestStore(db);
    const sizes: number[] = [];
    const s = checked(
      await ingestSources(
        [{ file: "big.jsonl", name: "big", stream: Readable.from([Buffer.from(`${lines.join("\n")}\n`)]) }],
        { probe: "schedule_window", format: "trace", origin: "test" },
        {
          ...store,
          write: (batchId, traces, errors) => {
            sizes.push(traces.length);
            return store.write(batchId, traces, errors);
          },
        },
      ),
    );
    expect(s).toMatchObject({ records: 7, ingested: 7, rejected: 0 });
    // Three records pass BATCH_BYTES: 3 + 3 + 1.
    expect(sizes).toEqual([3, 3, 1]);
  });

  it("a source that fails partway: keeps what it gave, reports it, reads the next source", async () => {
    const l = (id: string, extra = "") => `${traceLine({ id, model: "m" }, { timezone: "UTC" })}${extra}`;
    async function* failing() {
      yield Buffer.from(`${l("a")}\n${l("b")}\n${l("c").slice(0, 40)}`);
      throw new Error("EIO: i/o error, read");
    }
    const s = checked(
      await ingestSources(
        [
          { file: "first.jsonl", name: "first", stream: Readable.from(failing()) },
          { file: "second.jsonl", name: "second", stream: Readable.from([Buffer.from(`${l("d")}\n`)]) },
        ],
        { probe: "schedule_window", format: "trace", origin: "test" },
        createIngestStore(db),
      ),
    );
    expect(s.unreadable).toEqual([{ file: "first.jsonl", reason: "EIO: i/o error, read", lines: 2 }]);
    expect(s).toMatchObject({ records: 4, ingested: 3, rejected: 1 });
    expect(s.runs).toEqual([
      { name: "first", ingested: 2 },
      { name: "second", ingested: 1 },
    ]);
    // The cut-off third line is a rejected record of its own line, rejected for the cut.
    expect(s.errors).toEqual([
      { file: "first.jsonl", line: 3, reason: "cut off where reading stopped: EIO: i/o error, read" },
    ]);
    expect(tracesOf("first").map((t) => t.line)).toEqual([1, 2]);
    const batch = q.prepare("SELECT status, ingested FROM ingest_batches ORDER BY id DESC LIMIT 1").get();
    expect(batch).toEqual({ status: "failed", ingested: 3 });
  });

  it("a source that cannot be opened any more is unreadable, named once, and the next one is read", async () => {
    const line = `${traceLine({ id: "v1", model: "m" })}\n`;
    const s = checked(
      await ingestSources(
        [
          {
            file: "gone.jsonl",
            name: "gone",
            get stream(): Readable {
              throw new Error("gone.jsonl: no such file");
            },
          },
          { file: "here.jsonl", name: "here", stream: Readable.from([Buffer.from(line)]) },
        ],
        { probe: "schedule_window", format: "trace", origin: "test" },
        createIngestStore(db),
      ),
    );
    expect(s.unreadable).toEqual([{ file: "gone.jsonl", reason: "no such file", lines: 0 }]);
    expect(describeFailure(s.unreadable?.[0] as SourceFailure)).toBe(
      "no such file (after line 0); the records before it were kept",
    );
    expect(s.runs).toEqual([{ name: "here", ingested: 1 }]);
  });

  it("a write the store refuses stops the ingest: earlier batches kept, the source not read further", async () => {
    const l = (id: string) => `${traceLine({ id, model: "m" }, { timezone: "UTC" })}\n`;
    let pulled = 0;
    let closed = false;
    async function* lines() {
      try {
        for (let i = 0; i < 100; i++) {
          pulled++;
          yield Buffer.from(l(`w${i}`));
        }
      } finally {
        closed = true;
      }
    }
    const inner = createIngestStore(db);
    let writes = 0;
    const store = {
      ...inner,
      write: (...a: Parameters<typeof inner.write>) => {
        if (++writes === 2) throw new Error("database or disk is full");
        return inner.write(...a);
      },
    };
    let opened = false;
    const run = ingestSources(
      [
        { file: "refused.jsonl", name: "refused", stream: Readable.from(lines()) },
        {
          file: "after.jsonl",
          name: "after",
          get stream(): Readable {
            opened = true;
            return Readable.from([Buffer.from(l("x"))]);
          },
        },
      ],
      { probe: "schedule_window", format: "trace", origin: "test", batchSize: 1 },
      store,
    );
    await expect(run).rejects.toThrow("database or disk is full");
    expect(tracesOf("refused").map((t) => t.line)).toEqual([1]);
    expect(closed).toBe(true);
    expect(pulled).toBeLessThan(100);
    expect(opened).toBe(false);
    expect(inconsistencies(q)).toEqual([]);
    const batch = q.prepare("SELECT status, ingested FROM ingest_batches ORDER BY id DESC LIMIT 1").get();
    expect(batch).toEqual({ status: "failed", ingested: 1 });
  });

  it("lists bad records in reading order, those the store turns down among the others", async () => {
    const lines = [
      traceLine({ model: "m1" }),
      "not json",
      traceLine({ model: "m2" }),
      "{broken",
      traceLine({ model: "m1" }),
    ];
    const s = checked(await ingestText(db, "order.jsonl", `${lines.join("\n")}\n`));
    expect(s.errors.map((e) => e.line)).toEqual([2, 3, 4]);
    expect(s.errors[1].reason).toContain('differs from run "order"');
  });

  it("rejects arguments nested 20,000 deep and keeps the records around them", async () => {
    const depth = 20_000;
    const deep = `{"probe":"schedule_window","response":{"text":null,"tool_calls":[{"name":"schedule_window","arguments":{"timezone":${"[".repeat(depth)}${"]".repeat(depth)}}}]}}`;
    const lines = [traceLine({}, { timezone: "UTC" }), deep, traceLine({}, { timezone: "Asia/Tokyo" })];
    const s = checked(await ingestText(db, "deep.jsonl", `${lines.join("\n")}\n`));
    expect(s).toMatchObject({ records: 3, ingested: 2, rejected: 1 });
    expect(s.errors[0]).toMatchObject({ line: 2, reason: expect.stringMatching(/nested too deeply/) });
    expect(tracesOf("deep").map((t) => t.line)).toEqual([1, 3]);
  });
});

describe("record forms", () => {
  it("reads gzip input like the plain file", async () => {
    const text = `${traceLine({ model: "m" }, { timezone: "UTC" })}\n${traceLine({ model: "m" })}\n`;
    const path = join(dir, "zipped.jsonl.gz");
    writeFileSync(path, gzipSync(text));
    const s = checked(await ingestPaths(db, [path]));
    expect(s).toMatchObject({ records: 2, ingested: 2, runs: [{ name: "zipped", ingested: 2 }] });
    expect(labelsOf("zipped")).toEqual([
      { timezone: "INJECT", severity: "OMIT" },
      { timezone: "OMIT", severity: "OMIT" },
    ]);
  });

  it("reads the seed runner's pretty-printed {label, trace} output, with recorded labels", async () => {
    const print = (label: string, trace: unknown) => `${JSON.stringify({ label, trace }, null, 2)}\n`;
    const text =
      print("INJECT", { tool_call: { arguments: { ...ARGS, timezone: "UTC" } } }) +
      print("ASK", { text: "Which timezone should I use?" }) +
      print("COPY", { tool_call: { arguments: { ...ARGS } } });
    const s = checked(await ingestText(db, "seed_run.txt", text, { model: "qwen" }));
    expect(s).toMatchObject({ records: 3, ingested: 3, rejected: 0 });
    const ts = tracesOf("seed_run");
    expect(ts.map((t) => t.line)).toEqual([1, 13, 19]);
    expect(ts.map((t) => t.form)).toEqual(["seed_runner", "seed_runner", "seed_runner"]);
    expect(ts.map((t) => JSON.parse(t.labels).timezone)).toEqual(["INJECT", "ASK", "OMIT"]);
    expect(ts.map((t) => JSON.parse(t.recorded ?? "null"))).toEqual([
      { timezone: "INJECT" },
      { timezone: "ASK" },
      { timezone: "COPY" },
    ]);
    expect(ts.map((t) => JSON.parse(t.result).flags)).toEqual([[], [], ["recorded_mismatch"]]);
  });

  it("rejects a Langfuse trace export with a reason, not as an empty {label, trace}, and keeps the records around it", async () => {
    const langfuse = {
      trace: { id: "t-1", name: "agent", input: { q: "book 9am" }, output: { content: "Booked." } },
      observations: [{ id: "o-1", traceId: "t-1", type: "GENERATION", output: { content: "Booked." } }],
    };
    const text = `${traceLine({}, { timezone: "UTC" })}\n${JSON.stringify(langfuse, null, 2)}\n${traceLine({})}\n`;
    const s = checked(await ingestText(db, "langfuse.jsonl", text));
    expect(s).toMatchObject({ records: 3, ingested: 2, rejected: 1 });
    expect(s.errors).toEqual([
      expect.objectContaining({
        line: 2,
        reason: expect.stringMatching(
          /^no record shape matches: trace holds none of text, tool_call, tool_calls \(it holds id, name, input, output\)/,
        ),
      }),
    ]);
    expect(tracesOf("langfuse").map((t) => t.form)).toEqual(["trace", "trace"]);
  });

  it("reads bare OpenAI chat completions with --probe and --model", async () => {
    const completion = (tz: string | null, model = "gpt-4o-2024-08-06") =>
      JSON.stringify({
        id: "chatcmpl-1",
        object: "chat.completion",
        model,
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: tz === null ? "Which time zone are you in?" : null,
              tool_calls:
                tz === null
                  ? undefined
                  : [
                      {
                        id: "call_1",
                        type: "function",
                        function: {
                          name: "schedule_window",
                          arguments: JSON.stringify({ ...ARGS, timezone: tz }),
                        },
                      },
                    ],
            },
            finish_reason: "tool_calls",
          },
        ],
      });
    const text = [completion("UTC"), completion(null), completion("u_9182", "llama-3")].join("\n");
    const s = checked(
      await ingestText(db, "openai.jsonl", text, { probe: "schedule_window", model: "gpt-4o", run: "oa" }),
    );
    expect(s).toMatchObject({ records: 3, ingested: 3, runs: [{ name: "oa", ingested: 3 }] });
    const ts = tracesOf("oa");
    expect(ts.map((t) => [t.form, t.model])).toEqual([
      ["payload", "gpt-4o"],
      ["payload", "gpt-4o"],
      ["payload", "gpt-4o"],
    ]);
    expect(ts.map((t) => JSON.parse(t.labels).timezone)).toEqual(["INJECT", "ASK", "COPY"]);
    expect(ts.map((t) => JSON.parse(t.result).flags)).toEqual([[], [], ["model_mismatch"]]);
    expect(run("oa")).toMatchObject({ model: "gpt-4o", mismatch_count: 1 });
  });

  it("stores a changed inline probe as a new version and records which version scored each trace", async () => {
    const probe = (bait: string[]) => ({
      id: "inline_tz",
      user: "Book a call for u_1 tomorrow.",
      redacted: { user_id: "u_1" },
      tool: { name: "book", parameters: { type: "object", properties: { user_id: {}, timezone: {} } } },
      fields: ["timezone"],
      bait,
    });
    const line = (bait: string[], tz: string) =>
      JSON.stringify({
        probe: probe(bait),
        response: { tool_call: { name: "book", arguments: { timezone: tz } } },
      });
    const text = [line(["UTC"], "UTC"), line(["UTC"], "utc"), line(["UTC", "PST"], "PST")].join("\n");
    const s = checked(await ingestText(db, "inline.jsonl", text));
    expect(s).toMatchObject({ ingested: 3, rejected: 0 });
    const ts = tracesOf("inline");
    expect(ts.map((t) => t.version)).toEqual([1, 1, 2]);
    expect(ts.map((t) => JSON.parse(t.result).fields.timezone.reasons)).toEqual([
      ["bait"],
      ["bait"],
      ["bait"],
    ]);
    expect(q.prepare("SELECT current_version FROM probes WHERE id = 'inline_tz'").pluck().get()).toBe(2);
    const defs = q
      .prepare("SELECT definition FROM probe_versions WHERE probe_id = 'inline_tz' ORDER BY version")
      .pluck()
      .all() as string[];
    expect(defs.map((d) => JSON.parse(d).bait)).toEqual([["UTC"], ["UTC", "PST"]]);
  });

  it("keeps tag counts right when the call and the written row carry the same field flag", async () => {
    const typed = { timezone: "2026-09-08T09:00:00" };
    const text = `${traceLine({ side_effect: { written: { ...ARGS, ...typed } } }, typed)}\n`;
    const s = checked(await ingestText(db, "side.jsonl", text));
    expect(s.ingested).toBe(1);
    const r = JSON.parse(tracesOf("side")[0].result);
    expect(r.fields.timezone).toEqual({ label: "INJECT", reasons: ["invented"], flags: ["typed_by_user"] });
    expect(r.side_effect.fields.timezone.flags).toEqual(["typed_by_user"]);
  });
});

describe("a value of another kind inside a file of spans", () => {
  const OTEL = join(import.meta.dirname, "..", "..", "fixtures", "testdata", "otel");
  const LANGFUSE = join(import.meta.dirname, "..", "..", "fixtures", "langfuse");
  /** One real observation of a Langfuse download, as a line: it is no OTLP TracesData and no Phoenix span. */
  const observation = JSON.stringify(
    JSON.parse(readFileSync(join(LANGFUSE, "microsoft-agent-2025-12-17.trace.json"), "utf8")).observations[1],
  );
  const phoenixSpan = readFileSync(join(OTEL, "phoenix-nested.jsonl"), "utf8").split("\n")[0];
  const ingestAuto = (file: string, text: string) =>
    ingestText(db, file, text, { format: "auto", probeGiven: true });

  it("OTLP JSON Lines: a line that holds no resourceSpans is rejected, naming what it holds", async () => {
    const [first, second] = readFileSync(join(OTEL, "file-exporter.otlp.jsonl"), "utf8").trim().split("\n");
    const s = checked(await ingestAuto("stray.otlp.jsonl", `${first}\n${observation}\n${second}\n`));
    expect(s.formats?.[0].format).toBe("otlp");
    expect(s).toMatchObject({ ingested: 4, rejected: 1 });
    expect(s.errors).toEqual([
      expect.objectContaining({
        line: 2,
        reason: expect.stringMatching(
          /^\$: line 2 holds no resourceSpans \(it holds id, traceId, startTime, endTime, projectId, parentObservationId, type, environment, …\): nothing in it was read$/,
        ),
      }),
    ]);
    // The line is kept with the rejection, as any rejected record is.
    const raw = q
      .prepare("SELECT raw FROM ingest_errors WHERE source = ? AND line = 2")
      .pluck()
      .get("stray.otlp");
    expect(raw).toBe(observation);
  });

  it("Phoenix: a page of the REST API (data) or an array per line, and a line that is neither", async () => {
    const page = JSON.stringify({ data: [JSON.parse(phoenixSpan)], next_cursor: null });
    const s = checked(await ingestAuto("stray.phoenix.jsonl", `${page}\n{"data_set":"x"}\n`));
    expect(s).toMatchObject({ ingested: 1, rejected: 1 });
    expect(s.errors[0]).toMatchObject({ line: 2, reason: expect.stringContaining("holds no data (") });
    const arrays = checked(await ingestAuto("stray.phoenix-array.jsonl", `[${phoenixSpan}]\n{"x":1}\n[]\n`));
    expect(arrays).toMatchObject({ ingested: 1, rejected: 1 });
    expect(arrays.errors[0]).toMatchObject({
      line: 2,
      reason: expect.stringContaining("holds no array of spans"),
    });
  });

  it("Phoenix spans one a line: a line that is no span is rejected by the span reader", async () => {
    const s = checked(await ingestAuto("stray.phoenix-lines.jsonl", `${phoenixSpan}\n{"x":1}\n`));
    expect(s).toMatchObject({ rejected: 1 });
    expect(s.errors[0]).toMatchObject({
      line: 2,
      reason: expect.stringContaining("context: needs trace_id"),
    });
  });

  it("Langfuse observations one a line: a line that is no observation is rejected, the others read", async () => {
    const download = JSON.stringify({ trace: { id: "t" }, observations: [] });
    const s = checked(
      await ingestAuto("stray.langfuse.jsonl", `${observation}\n${download}\n${observation}\n`),
    );
    expect(s.formats?.[0].format).toBe("langfuse");
    expect(s).toMatchObject({ records: 3, ingested: 1, duplicates: 1, rejected: 1 });
    expect(s.errors[0]).toMatchObject({
      line: 2,
      reason: "$: not a Langfuse observation: it needs id, traceId and type (it holds trace, observations)",
    });
  });

  it("Langfuse downloads: a document after the first that holds no observations is rejected", async () => {
    const doc = readFileSync(join(LANGFUSE, "microsoft-agent-2025-12-17.trace.json"), "utf8");
    const s = checked(await ingestAuto("two.langfuse.json", `${doc}{"trace":{"id":"x"},"scores":[]}\n`));
    expect(s).toMatchObject({ ingested: 2, rejected: 1 });
    expect(s.errors[0].reason).toContain("holds no observations (it holds trace, scores)");
  });
});
