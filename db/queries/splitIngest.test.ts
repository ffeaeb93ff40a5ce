import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { WHEN2CALL_RUN } from "../../lib/ingest/when2call";
import {
  splitSide,
  splitWhen2Call,
  WHEN2CALL_MEASURE_RUN,
  WHEN2CALL_TRAIN_RUN,
} from "../../lib/tuning/split";
import { ingestText, tempDb } from "../testing/ingest";

const FILE = readFileSync(join(__dirname, "../../fixtures/when2call/when2call_test_llm_judge.jsonl"), "utf8");
const t = tempDb("split");
afterAll(() => t.cleanup());

describe("the When2Call split, ingested", () => {
  it("sends each side to its own run with --run, the four answers of a question together", async () => {
    const lines = FILE.split("\n").slice(0, 40).join("\n");
    const split = splitWhen2Call(lines);
    const train = await ingestText(t.db, "train.jsonl", split.train.join("\n"), {
      format: "when2call",
      run: WHEN2CALL_TRAIN_RUN,
    });
    const measure = await ingestText(t.db, "measure.jsonl", split.measure.join("\n"), {
      format: "when2call",
      run: WHEN2CALL_MEASURE_RUN,
    });
    expect(train.runs.map((r) => r.name)).toEqual([WHEN2CALL_TRAIN_RUN]);
    expect(measure.runs.map((r) => r.name)).toEqual([WHEN2CALL_MEASURE_RUN]);
    expect(train.ingested).toBe(4 * split.train.length);
    expect(measure.ingested).toBe(4 * split.measure.length);
    const rows = t.db.sqlite
      .prepare("SELECT r.name AS run, t.probe_id AS probe FROM traces t JOIN runs r ON r.id = t.run_id")
      .all() as { run: string; probe: string }[];
    const byProbe = new Map<string, Set<string>>();
    for (const r of rows) byProbe.set(r.probe, new Set([...(byProbe.get(r.probe) ?? []), r.run]));
    for (const runs of byProbe.values()) expect(runs.size).toBe(1);
    // Each probe's question decides its run.
    const questions = new Map(
      FILE.split("\n")
        .slice(0, 40)
        .map((l) => JSON.parse(l))
        .map((r) => [r.uuid.slice(0, 8), r.question]),
    );
    for (const r of rows) {
      const q = questions.get(r.probe.split(":").pop() as string) as string;
      expect(r.run).toBe(splitSide(q) === "train" ? WHEN2CALL_TRAIN_RUN : WHEN2CALL_MEASURE_RUN);
    }
  });

  it("still ingests into the calibration run without --run", async () => {
    const one = FILE.split("\n")[0];
    const s = await ingestText(t.db, "w2c.jsonl", one, { format: "when2call" });
    expect(s.runs.map((r) => r.name)).toEqual([WHEN2CALL_RUN]);
  });
});
