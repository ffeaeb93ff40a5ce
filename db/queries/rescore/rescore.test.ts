import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../../lib/root";
import { parseTraceFilter } from "../../../lib/traceFilter";
import { type Db, openDb } from "../../client";
import { ingestPaths, ingestText, tempDb } from "../../testing/ingest";
import { expectConsistent, snapshot } from "../../testing/rescore";
import { syncBuiltinProbes } from "../probes";
import { backfillAll } from "../tagBackfill";
import { listTraces } from "../traceList";
import { pendingRescores } from "./jobs";
import { rereadAllRuns, runPendingRescores } from "./run";

/** What setup does after a migration: the queued re-scores, then the review queue's tags of older traces. */
function upgrade(db: Db, options?: Parameters<typeof runPendingRescores>[1]) {
  const reports = runPendingRescores(db, options);
  backfillAll(db);
  return reports;
}

const DATA = join(projectRoot(), "fixtures", "testdata");
const FILES = [
  join(DATA, "flags.jsonl"),
  join(projectRoot(), "fixtures", "demo", "plover-lite-2-2026-11-29.jsonl"),
];
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A copy of the database the version before the flags made, opened (and so migrated) by this one. */
function preFlagsDb(): Db {
  const dir = mkdtempSync(join(tmpdir(), "assumeprobe-preflags-"));
  dirs.push(dir);
  const file = join(dir, "old.db");
  writeFileSync(file, gunzipSync(readFileSync(join(DATA, "pre-flags.db.gz"))));
  const db = openDb(file);
  syncBuiltinProbes(db);
  return db;
}

const runId = (db: Db, name: string) =>
  db.sqlite.prepare("SELECT id FROM runs WHERE name = ?").pluck().get(name) as number;
const found = (db: Db, run: string, filter: Record<string, string>, field: string | null = "timezone") =>
  listTraces(db, runId(db, run), parseTraceFilter(filter), field, 500).rows.map((r) => r.extId);

describe("a database from before the flags, upgraded", () => {
  it("is queued for a one-time re-score, its signatures reset", () => {
    const db = preFlagsDb();
    expect(pendingRescores(db)).toHaveLength(3);
    const sigs = db.sqlite.prepare("SELECT DISTINCT sig FROM trace_tags").pluck().all();
    expect(sigs).toEqual([-1]);
    const flagged = db.sqlite
      .prepare("SELECT count(*) FROM traces WHERE result LIKE '%unparsed_call%'")
      .pluck()
      .get();
    expect(flagged).toBe(0);
    // The old parser took the placeholder for a call.
    expect(found(db, "fixtures-flags", { label: "OMIT" })).toContain("placeholder-chat-ask");
  });

  it("gains the flags and the placeholder fix: equal to a fresh ingest, counts equal a recount", async () => {
    const db = preFlagsDb();
    const reports = upgrade(db, { batchSize: 7 });
    expect(reports.map((r) => [r.run, r.status, r.skipped])).toEqual([
      ["fixtures-flags", "done", 0],
      ["fixtures-flags-2", "done", 0],
      ["plover-lite-2/nightly-2026-11-29", "done", 0],
    ]);
    const [main, second, plover] = reports;
    expect(main.scanned).toBe(29);
    // placeholder-chat-fenced: the placeholder hid a fenced call, now recovered.
    // Gemini's, Cohere's, Bedrock's and Ollama's payloads are read now: only the error body stays
    // unrecognized, and the Gemini call's modelVersion is not the record's model.
    // explicit-fenced-call: the fenced call in an explicit response's text is recovered now.
    expect(main.transitions.flags.gained).toEqual({
      fenced: 2,
      model_mismatch: 1,
      unparsed_call: 6,
      unrecognized_payload: 1,
    });
    expect(main.transitions.fields.timezone.OMIT).toEqual({ ASK: 3, DRIFT: 2, INJECT: 2 });
    expect(main.transitions.gate.block).toEqual({ no_call: 5 });
    expect(main.transitions.examples["timezone:OMIT>ASK"]).toHaveLength(3);
    // gemini-text: read as the question it is, from a model its record does not name.
    expect(second.transitions.flags.gained).toEqual({ model_mismatch: 1 });
    expect(plover.changed).toBeGreaterThan(0);
    expect(plover.transitions.flags.gained.unparsed_call).toBe(plover.changed);
    // Every unchanged trace got its current signature back.
    expect(main.changed + main.resigned).toBe(29);

    const fresh = tempDb("fresh");
    dirs.push(fresh.dir);
    await ingestPaths(fresh.db, FILES);
    const want = snapshot(fresh.db);
    const have = snapshot(db);
    expect([...have.keys()]).toEqual([...want.keys()]);
    for (const [k, w] of want) expect(have.get(k), k).toEqual(w);
    expectConsistent(db);

    // The flags filter, alone and with a label; search sees the recovered call's arguments.
    expect(found(db, "fixtures-flags", { flag: "unrecognized_payload" })).toEqual(["error-body"]);
    // Keys of an unparsed call outside a fence still read as ask terms; inside a fenced code block
    // they never count (DESIGN.md, "Parsing is not scoring").
    expect(found(db, "fixtures-flags", { flag: "unparsed_call", label: "ASK" })).toEqual([
      "broken-unfenced-truncated",
      "python-dict-call",
      "hermes-text-call",
    ]);
    expect(found(db, "fixtures-flags", { flag: "unparsed_call", label: "DRIFT" })).toEqual([
      "broken-fence-trailing-comma",
      "valid-block-naming-field",
      "python-code-block",
    ]);
    expect(found(db, "fixtures-flags", { label: "OMIT" })).not.toContain("placeholder-chat-ask");
    expect(
      listTraces(db, runId(db, "fixtures-flags"), parseTraceFilter({ q: "utc" }), null).rows.map(
        (r) => r.extId,
      ),
    ).toEqual(
      listTraces(fresh.db, runId(fresh.db, "fixtures-flags"), parseTraceFilter({ q: "utc" }), null).rows.map(
        (r) => r.extId,
      ),
    );
    fresh.cleanup();

    // Once: nothing is pending, and re-scoring again changes nothing.
    expect(pendingRescores(db)).toEqual([]);
    const before = snapshot(db);
    const again = rereadAllRuns(db, "test");
    expect(again.map((r) => [r.changed, r.resigned, r.skipped])).toEqual([
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ]);
    expect(snapshot(db)).toEqual(before);
  });

  it("leaves a trace it cannot re-read as stored, lists why, and goes on", () => {
    const db = preFlagsDb();
    const idOf = (ext: string) =>
      db.sqlite
        .prepare("SELECT id FROM traces WHERE ext_id = ? AND run_id = ?")
        .pluck()
        .get(ext, runId(db, "fixtures-flags")) as number;
    const damaged = idOf("placeholder-chat-ask");
    const cut = idOf("gemini-call");
    const gone = idOf("chat-ask");
    db.sqlite.prepare("UPDATE traces SET result = '{broken' WHERE id = ?").run(damaged);
    db.sqlite
      .prepare("UPDATE traces SET original = '{\"raw\": ', original_block = NULL WHERE id = ?")
      .run(cut);
    db.sqlite.prepare("UPDATE traces SET probe_version = 99 WHERE id = ?").run(gone);
    const [main] = upgrade(db);
    expect(main.status).toBe("done");
    expect(main.skipped).toBe(3);
    expect(main.skips.map((x) => x.trace_id).sort()).toEqual([damaged, cut, gone].sort());
    expect(main.skips.find((x) => x.trace_id === damaged)?.reason).toBe("its stored result does not parse");
    expect(main.skips.find((x) => x.trace_id === cut)?.reason).toMatch(/^the original record does not parse/);
    expect(main.skips.find((x) => x.trace_id === gone)?.reason).toBe(
      "probe schedule_window v99 is not in the database",
    );
    expect(main.changed).toBe(17);
    expect(db.sqlite.prepare("SELECT result FROM traces WHERE id = ?").pluck().get(damaged)).toBe("{broken");
  });

  it("resumes a stopped re-score where it stopped, counting nothing twice", () => {
    const whole = preFlagsDb();
    const oneGo = upgrade(whole);
    const stopped = preFlagsDb();
    const first = upgrade(stopped, { batchSize: 4, maxBatches: 2 });
    expect(first[0].status).toBe("pending");
    expect(first[0].scanned).toBe(8);
    // The small second run finished within its two batches; the others wait.
    expect(first.map((r) => r.status)).toEqual(["pending", "done", "pending"]);
    expect(pendingRescores(stopped)).toHaveLength(2);
    const rest = upgrade(stopped, { batchSize: 4 });
    const noId = (r: { id: number; createdAt: string; finishedAt: string | null }) => ({
      ...r,
      id: 0,
      createdAt: "",
      finishedAt: "",
    });
    expect(rest.map(noId)).toEqual([oneGo[0], oneGo[2]].map(noId));
    expect(snapshot(stopped)).toEqual(snapshot(whole));
    expectConsistent(stopped);
  });
});

describe("re-scoring under an unchanged configuration", () => {
  it("changes nothing for records of every form, When2Call lines and ids too large to pack", async () => {
    const { db, cleanup } = tempDb("rescore-forms");
    try {
      const w2c = readFileSync(
        join(projectRoot(), "fixtures", "when2call", "when2call_test_llm_judge.jsonl"),
        "utf8",
      );
      await ingestText(db, "w2c.jsonl", w2c.split("\n").slice(0, 12).join("\n"), { format: "when2call" });
      const payload = {
        object: "chat.completion",
        model: "m",
        choices: [{ message: { content: "which zone?" } }],
      };
      const lines = [
        // A byte-order mark opens the file: the first record's stored bytes carry it.
        `\uFEFF${JSON.stringify({ id: "a", model: "m", raw: payload })}`,
        JSON.stringify({ id: "b", model: "m", response: { text: '{"timezone": 1,}', tool_calls: [] } }),
        JSON.stringify({ label: "ASK", trace: { text: "which zone?", tool_call: null } }),
        JSON.stringify(payload),
        JSON.stringify({ id: "c", model: "m", raw: { candidates: [] }, world_state: {} }, null, 2),
        JSON.stringify({ id: "d", model: "m", response: { text: "zone \u00ff?", tool_calls: [] } }),
      ];
      const bytes = Buffer.concat([
        Buffer.from(`${lines.join("\r\n")}\n`),
        Buffer.from('{"id":"e","response":{"text":"\xff'),
        Buffer.from([0xff, 0x22, 0x7d, 0x7d, 0x0a]),
      ]);
      const summary = await ingestText(db, "forms.jsonl", bytes, { run: "forms", model: "m" });
      expect(summary.rejected, JSON.stringify(summary.errors)).toBe(0);
      // Ids past the largest packable one keep no signature (-1), before and after.
      const last = db.sqlite.prepare("SELECT max(id) FROM traces").pluck().get() as number;
      db.sqlite.prepare("UPDATE traces SET id = ? WHERE id = ?").run(2 ** 31 - 1, last);
      db.sqlite.prepare("UPDATE trace_tags SET trace_id = ? WHERE trace_id = ?").run(2 ** 31 - 1, last);
      await ingestText(db, "more.jsonl", `${lines[1].replace('"b"', '"z"')}\n`, { run: "forms", model: "m" });
      const before = snapshot(db);
      const reports = rereadAllRuns(db, "test", { batchSize: 3 });
      expect(reports.map((r) => [r.run, r.changed, r.resigned, r.skipped])).toEqual([
        ["when2call-calibration", 0, 0, 0],
        ["forms", 0, 0, 0],
      ]);
      expect(reports[0].scanned).toBe(48);
      expect(snapshot(db)).toEqual(before);
      // A reset of the signatures is undone, ids too large to pack excepted.
      db.sqlite.prepare("UPDATE trace_tags SET sig = -1").run();
      const again = rereadAllRuns(db, "test");
      // Eight traces in "forms": the last one, past the largest packable id, keeps -1.
      expect(again.map((r) => r.resigned)).toEqual([48, 7]);
      expect(snapshot(db)).toEqual(before);
      expect(snapshot(db).get("forms#z")?.sigs).toEqual([-1]);
    } finally {
      cleanup();
    }
  });

  const piece = fc.constantFrom(
    "Which timezone?",
    "ok",
    '{"timezone": "UTC",}',
    '```json\n{"name": "schedule_window", "arguments": {"timezone": "UTC"}}\n```',
    "severity",
    "{'severity': 'P3'}",
  );
  const call = fc.record({
    name: fc.constantFrom("schedule_window", "", "other"),
    arguments: fc.constantFrom(
      "",
      "{}",
      '{"timezone":"UTC"}',
      '{"timezone":"Asia/Tokyo","severity":"P3"}',
      "{bad",
    ),
  });
  const payload = fc.oneof(
    fc
      .tuple(fc.option(piece), fc.array(call, { maxLength: 2 }), fc.option(call))
      .map(([text, calls, fn]) => ({
        object: "chat.completion",
        model: "m",
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: text,
              tool_calls: calls.map((c) => ({ type: "function", function: c })),
              function_call: fn,
            },
          },
        ],
      })),
    fc.tuple(fc.option(piece), fc.array(call, { maxLength: 2 })).map(([text, calls]) => ({
      type: "message",
      role: "assistant",
      content: [
        ...(text ? [{ type: "text", text }] : []),
        ...calls.map((c) => ({ type: "tool_use", name: c.name, input: {} })),
      ],
    })),
    fc.constantFrom({ candidates: [] }, { error: { message: "x" } }),
  );
  const record = fc.record(
    {
      raw: payload,
      label: fc.constantFrom("ASK", "OMIT", "DRIFT"),
      human: fc.constant({ timezone: "ASK" }),
    },
    { requiredKeys: ["raw"] },
  );

  it("changes nothing", async () => {
    const { db, cleanup } = tempDb("rescore-property");
    try {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(record, { minLength: 1, maxLength: 12 }), async (records) => {
          const run = `prop-${++n}`;
          const lines = records.map((r, i) => JSON.stringify({ id: `r${i}`, run, model: "m", ...r }));
          await ingestText(db, `${run}.jsonl`, `${lines.join("\n")}\n`);
          const before = snapshot(db);
          const reports = rereadAllRuns(db, "property", { batchSize: 5 });
          for (const r of reports) expect([r.changed, r.resigned, r.skipped]).toEqual([0, 0, 0]);
          expect(snapshot(db)).toEqual(before);
        }),
        { numRuns: 25 },
      );
      expectConsistent(db);
    } finally {
      cleanup();
    }
  });
});
