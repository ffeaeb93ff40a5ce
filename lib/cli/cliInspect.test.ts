import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliSandbox } from "./testCli";

const box = cliSandbox("inspect");
afterAll(box.cleanup);
const SLOW = { timeout: 120_000 };
const DIR = join(import.meta.dirname, "..", "..", "fixtures", "inspect");
/** Real logs from inspect_ai's tests (fixtures/inspect/SOURCES.md). */
const DEDUP = join(DIR, "log_message_deduplication.eval");
const STREAMING = join(DIR, "log_streaming.eval");
const BROWSER = join(DIR, "browser.json");

const last = (lines: string[]) => JSON.parse(lines[lines.length - 1]);
interface Row {
  ext_id: string;
  model: string;
  response: string;
  agent_step: number;
}
const rows = (source: string) =>
  box.query<Row>(
    "SELECT ext_id, model, response, agent_step FROM traces WHERE source = ? ORDER BY ext_id",
    source,
  );
const spools = () => readdirSync(tmpdir()).filter((n) => n.startsWith("assumeprobe-spool-")).length;

describe("assumeprobe ingest of Inspect logs", SLOW, () => {
  it("reads a .eval with no flags: every generation a record; no probe offers bash, each is rejected naming its zip entry", async () => {
    const r = await box.run(["ingest", DEDUP, "--json"]);
    expect(r.code).toBe(1);
    const s = last(r.lines);
    expect(s.formats).toEqual([
      { file: DEDUP, format: "inspect", evidence: "a zip archive (an Inspect .eval log)" },
    ]);
    expect(s).toMatchObject({ records: 6, ingested: 0, rejected: 6 });
    expect(s.errors.map((e: { path: string }) => e.path)).toEqual(
      [8, 13, 18, 23, 28, 33].map((n) => `samples/0_epoch_1.json:events[${n}]`),
    );
    expect(s.errors[0].reason).toBe(
      "samples/0_epoch_1.json:events[8]: no probe offers the tools this generation was offered or called (bash, python); choose one with --probe ID (or the sample's metadata assumeprobe_probe), or make a probe from this trace's text",
    );
  });

  it("reads each sample and epoch of a .eval with --probe: identity sample:epoch:index, the eval's model", async () => {
    const r = await box.run(["ingest", STREAMING, "--probe", "schedule_window", "--json"]);
    expect(r.code).toBe(0);
    expect(last(r.lines)).toMatchObject({ records: 4, ingested: 4 });
    expect(rows("log_streaming").map((t) => [t.ext_id, t.model, JSON.parse(t.response).text])).toEqual([
      ["1:1:0", "azureai/Meta-Llama-3-1-405B-Instruct-jqf", "No"],
      ["1:2:0", "azureai/Meta-Llama-3-1-405B-Instruct-jqf", "Yes."],
      ["2:1:0", "azureai/Meta-Llama-3-1-405B-Instruct-jqf", "No."],
      ["2:2:0", "azureai/Meta-Llama-3-1-405B-Instruct-jqf", "No"],
    ]);
  });

  it("reads a .eval from standard input through a spool it removes", async () => {
    const before = spools();
    const r = await box.run(["ingest", "-", "--probe", "schedule_window", "--json"], readFileSync(DEDUP));
    expect(r.code).toBe(0);
    expect(last(r.lines)).toMatchObject({ records: 6, ingested: 6 });
    expect(spools()).toBe(before);
    const got = rows("stdin");
    const ls = { name: "bash", arguments: { cmd: "ls" } };
    // One turn; no generation calls the probe's tool, so its last one counts, the others are steps.
    expect(got.map((t) => [t.ext_id, JSON.parse(t.response).tool_calls, t.agent_step])).toEqual([
      ["0:1:0", [ls], 1],
      ["0:1:1", [ls], 1],
      ["0:1:2", [ls], 1],
      ["0:1:3", [ls], 1],
      ["0:1:4", [ls], 1],
      ["0:1:5", [], 0],
    ]);
    expect(JSON.parse(got[5].response).text).toBe("done");
  });

  it("takes --format inspect for a .json log, and refuses --format otlp for a .eval, saying what it is", async () => {
    let r = await box.run(["ingest", BROWSER, "--format", "inspect", "--probe", "schedule_window", "--json"]);
    expect(r.code).toBe(0);
    expect(last(r.lines)).toMatchObject({
      records: 5,
      ingested: 5,
      formats: [{ file: BROWSER, format: "inspect", evidence: "an EvalLog: eval with task, and samples" }],
    });
    r = await box.run(["ingest", DEDUP, "--format", "otlp", "--json"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "--format otlp, but the file is inspect (a zip archive (an Inspect .eval log)); pass --format inspect or auto",
    );
  });
});
