/**
 * `assumeprobe ingest` on its writer thread, which receives a batch's originals packed in blocks
 * and not the records themselves: what it stores and what it turns down keep the record's bytes.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { originalOf } from "../../db/queries/originals";
import { inlineOriginals } from "../../db/queries/packOriginals";
import { ingestText, tempDb, traceLine } from "../../db/testing/ingest";
import { orphanBlocks, storedOriginals, unpackOriginals, variedLines } from "../../db/testing/originals";
import { cliSandbox, runCli } from "./testCli";

const ROOT = join(import.meta.dirname, "..", "..");

const box = cliSandbox("cli-originals");
afterAll(() => box.cleanup());

describe("packing a database's inline originals from the command line", () => {
  let t: ReturnType<typeof tempDb>;
  beforeEach(() => {
    t = tempDb("cli-pack");
  });
  afterEach(() => t.cleanup());

  it("goes on where a killed `db pack` stopped: readers see every original meanwhile, nothing is lost or left over", async () => {
    await ingestText(t.db, "a.jsonl", variedLines(12_000));
    const want = storedOriginals(t.db);
    unpackOriginals(t.db);
    expect(inlineOriginals(t.db)).toBe(12_000);
    // A chunk of 10 rows per transaction: long enough to be killed partway.
    const child = spawn(
      process.execPath,
      [join(ROOT, "bin", "assumeprobe.js"), "db", "pack", "--chunk", "10"],
      {
        cwd: ROOT,
        env: { ...process.env, ASSUMEPROBE_DB: t.db.path },
        stdio: "ignore",
      },
    );
    const exited = new Promise((r) => child.on("exit", r));
    let inline = 12_000;
    while (inline > 9_000) {
      await new Promise((r) => setTimeout(r, 5));
      inline = inlineOriginals(t.db);
    }
    child.kill("SIGKILL");
    await exited;
    const left = inlineOriginals(t.db);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(12_000);
    // Half packed, half inline: every reader reads them all alike.
    expect(storedOriginals(t.db)).toEqual(want);
    expect(orphanBlocks(t.db)).toBe(0);
    const r = await runCli(["db", "pack", "--json"], { ASSUMEPROBE_DB: t.db.path });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.lines.at(-1) ?? "")).toEqual({
      traces_before: 12_000,
      traces_after: 12_000,
      packed: left,
      inline: 0,
    });
    expect(storedOriginals(t.db)).toEqual(want);
    expect(orphanBlocks(t.db)).toBe(0);
  });

  it("`assumeprobe setup` (what `npm start` runs) packs what an upgraded database holds inline, and says so", async () => {
    await ingestText(t.db, "a.jsonl", variedLines(300));
    const want = storedOriginals(t.db);
    unpackOriginals(t.db);
    const r = await runCli(["setup"], { ASSUMEPROBE_DB: t.db.path });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "assumeprobe: packing the originals of 300 stored traces into compressed blocks",
    );
    expect(r.stdout).toContain("originals packed (traces before 300, after 300)");
    expect(inlineOriginals(t.db)).toBe(0);
    expect(storedOriginals(t.db)).toEqual(want);
    const again = await runCli(["setup"], { ASSUMEPROBE_DB: t.db.path });
    expect(again.stdout).not.toContain("packing");
  });
});

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
