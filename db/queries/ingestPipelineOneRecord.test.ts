import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { ingestSources } from "../../lib/ingest/pipeline";
import { MAX_NESTING } from "../../lib/ingest/records";
import { ingestText, tempDb, traceLine } from "../testing/ingest";
import { summaryChecker } from "../testing/ingestSummary";
import { createIngestStore } from "./ingestStore";

const { db, cleanup } = tempDb("one-record");
afterAll(cleanup);
const q = db.sqlite;

/** Every summary adds up, and the database stays consistent after every ingest. */
const checked = summaryChecker(q);

const linesOf = (run: string) =>
  q
    .prepare("SELECT t.line FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = ? ORDER BY t.line")
    .pluck()
    .all(run) as number[];

/** A value nested `depth` levels deep (objects), built without recursion. */
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
const deepArray = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const CALL = `{"text":null,"tool_calls":[{"name":"schedule_window","arguments":{"user_id":"u_9182","starts_at":"2026-09-08T09:00:00"}}]}`;

describe("one record never stops an ingest", () => {
  // Each is a record with one field nested 100,000 deep (the reproduction was `params`).
  const DEEP = 100_000;
  const cases: [string, string][] = [
    ["params", `{"probe":"schedule_window","response":${CALL},"params":{"p":${deepObject(DEEP)}}}`],
    [
      "response arguments",
      `{"response":{"tool_calls":[{"name":"schedule_window","arguments":{"timezone":${deepArray(DEEP)}}}]}}`,
    ],
    ["response text", `{"response":{"text":${deepArray(DEEP)}}}`],
    ["raw", `{"raw":{"choices":${deepArray(DEEP)}}}`],
    ["raw beside response", `{"response":${CALL},"raw":${deepObject(DEEP)}}`],
    ["world_state", `{"response":${CALL},"world_state":{"timezone":${deepObject(DEEP)}}}`],
    ["side_effect", `{"response":${CALL},"side_effect":{"written":${deepObject(DEEP)}}}`],
    ["human", `{"response":${CALL},"human":{"timezone":${deepArray(DEEP)}}}`],
    ["inline probe", `{"response":${CALL},"probe":{"id":"deep","hidden":${deepObject(DEEP)}}}`],
    ["a seed trace", `{"label":"ASK","trace":{"text":"x","more":${deepArray(DEEP)}}}`],
    ["a bare payload", `{"object":"chat.completion","model":"m","choices":[${deepObject(DEEP)}]}`],
  ];
  for (const [field, deep] of cases) {
    it(`rejects a record with ${field} nested 100,000 deep, with a reason, and keeps its neighbours`, async () => {
      const run = `deep-${field.replaceAll(" ", "-")}`;
      const text = [traceLine({}, { timezone: "UTC" }), deep, traceLine({}, { timezone: "Asia/Tokyo" })];
      const s = checked(await ingestText(db, `${run}.jsonl`, `${text.join("\n")}\n`, { batchSize: 2 }));
      expect(s).toMatchObject({ records: 3, ingested: 2, rejected: 1 });
      expect(s.errors).toEqual([
        {
          file: `${run}.jsonl`,
          line: 2,
          reason: `nested too deeply: more than ${MAX_NESTING} levels of objects and arrays (the limit)`,
        },
      ]);
      expect(linesOf(run)).toEqual([1, 3]);
    });
  }

  it("accepts a record nested exactly 64 levels deep and rejects one at 65", async () => {
    // The record is level 1, params 2, then 61 or 62 more objects around the value.
    const at = (levels: number) => `{"response":${CALL},"params":{"p":${deepObject(levels - 2)}}}`;
    const s = checked(await ingestText(db, "limit.jsonl", `${at(64)}\n${at(65)}\n`));
    expect(s).toMatchObject({ ingested: 1, rejected: 1 });
    expect(s.errors[0]).toMatchObject({ line: 2, reason: expect.stringMatching(/^nested too deeply/) });
  });

  it("accepts wide objects, long arrays and huge strings within the size limit", async () => {
    const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
    const facts = Object.fromEntries(
      Array.from({ length: 20_000 }, (_, i) => [`f${i}`, { status: "known", value: i, source: "state" }]),
    );
    const text = [
      traceLine({ params: wide }),
      traceLine({}, { timezone: "UTC", notes: Array.from({ length: 200_000 }, (_, i) => i) }),
      JSON.stringify({ response: { text: `Which time zone? ${"x".repeat(6_000_000)}` } }),
      traceLine({ world_state: facts }),
    ];
    const s = checked(await ingestText(db, "wide.jsonl", `${text.join("\n")}\n`));
    expect(s.errors).toEqual([]);
    expect(s).toMatchObject({ records: 4, rejected: 0, ingested: 4 });
  });

  it("reads arguments given as a JSON string nested 100,000 deep as unreadable (ERROR), and goes on", async () => {
    const args = JSON.stringify(deepArray(100_000));
    const rec = `{"response":{"tool_calls":[{"name":"schedule_window","arguments":${args}}]}}`;
    const s = checked(await ingestText(db, "deep-string.jsonl", `${rec}\n${traceLine()}\n`));
    expect(s.records).toBe(2);
    expect(s.ingested + s.rejected).toBe(2);
    expect(linesOf("deep-string")).toContain(2);
  });

  it("a record the database refuses is rejected with the reason, and the rest of its batch is stored", async () => {
    const inner = createIngestStore(db);
    const store = {
      ...inner,
      write: (...a: Parameters<typeof inner.write>) => {
        // The second record of the batch holds a value SQLite cannot bind.
        const [batchId, traces, errors] = a;
        const broken = traces.map((t, i) => (i === 1 ? { ...t, search: { not: "a string" } as never } : t));
        return inner.write(batchId, broken, errors);
      },
    };
    const text = [1, 2, 3].map((i) => traceLine({ id: `r${i}` })).join("\n");
    const s = checked(
      await ingestSources(
        [{ file: "refused.jsonl", name: "refused", stream: Readable.from([Buffer.from(`${text}\n`)]) }],
        { probe: "schedule_window", format: "trace", origin: "test" },
        store,
      ),
    );
    expect(s).toMatchObject({ records: 3, ingested: 2, rejected: 1 });
    expect(s.errors).toEqual([
      { file: "refused.jsonl", line: 2, reason: expect.stringMatching(/^the database refused the record: /) },
    ]);
    expect(linesOf("refused")).toEqual([1, 3]);
    expect(q.prepare("SELECT rejected_count FROM runs WHERE name = 'refused'").pluck().get()).toBe(1);
  });
});
