/**
 * `assumeprobe ingest` on its writer thread, which receives a batch's originals packed in blocks
 * and not the records themselves: what it stores and what it turns down keep the record's bytes.
 */
import { afterAll, describe, expect, it } from "vitest";
import { originalOf } from "../../db/queries/originals";
import { traceLine } from "../../db/testing/ingest";
import { cliSandbox } from "./testCli";

const box = cliSandbox("cli-originals");
afterAll(() => box.cleanup());

describe("originals through the ingest writer thread", () => {
  it("stores each record's bytes, and a record the writer turns down keeps them in its error", async () => {
    const first = [
      traceLine({ id: "a", run: "r", model: "m1" }),
      traceLine({ id: "b", run: "r", model: "m1" }),
    ];
    const r1 = await box.run(["ingest", box.file("one.jsonl", `${first.join("\n")}\n`), "--json"]);
    expect(r1.code).toBe(0);
    // The run is pinned to m1: a record naming m2 is turned down by the writer, not the reader.
    const other = traceLine({ id: "c", run: "r", model: "m2" }, { timezone: "Europe/Paris" });
    const again = traceLine({ id: "d", run: "r", model: "m1" });
    const r2 = await box.run(["ingest", box.file("two.jsonl", `${other}\n${again}\n`), "--json"]);
    expect(JSON.parse(r2.lines.at(-1) ?? "")).toMatchObject({ ingested: 1, rejected: 1 });
    const stored = box.query<{ ext_id: string; original: string }>(
      `SELECT ext_id, ${originalOf()} AS original FROM traces ORDER BY id`,
    );
    expect(stored).toEqual([
      { ext_id: "a", original: first[0] },
      { ext_id: "b", original: first[1] },
      { ext_id: "d", original: again },
    ]);
    const errors = box.query<{ reason: string; raw: string }>("SELECT reason, raw FROM ingest_errors");
    expect(errors).toEqual([{ reason: expect.stringContaining('pinned model "m1"'), raw: other }]);
  });
});
