import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scheduleWindow } from "../probe/testProbes";
import { ARGS, cliSandbox, jsonl } from "./testCli";

const box = cliSandbox("cli-export");
afterAll(box.cleanup);
// Each test spawns the CLI (tsx compiles it on start): slow on a loaded machine.
const SLOW = { timeout: 120_000 };

const call = (extra: Record<string, unknown> = {}) => ({
  tool_call: { name: "schedule_window", arguments: { ...ARGS, ...extra } },
});

describe("export", SLOW, () => {
  const first = box.file(
    "first.jsonl",
    jsonl([
      { id: "a1", run: "n1", model: "m", response: call({ timezone: "UTC" }), human: { timezone: "inject" } },
      { run: "n1", model: "m", response: { text: "Which timezone?" } },
      { run: "n2", model: "m", response: call() },
      { run: "n1", model: "m", response: call(), side_effect: { written: { ...ARGS, timezone: "UTC" } } },
    ]),
  );
  const second = box.file(
    "second.jsonl",
    jsonl([{ run: "n1", model: "m", response: call({ severity: "P3" }) }]),
  );

  it("prints a run's traces in ingest order, with stored labels in the shape score prints", async () => {
    const ingest = await box.run(["ingest", first, second, "--json"]);
    expect(ingest.code).toBe(0);
    const [exp, sc1, sc2] = await Promise.all([
      box.run(["export", "n1"]),
      box.run(["score", first]),
      box.run(["score", second]),
    ]);
    expect(exp.code).toBe(0);
    const rows = exp.lines.map((l) => JSON.parse(l));
    expect(rows.map((r) => [r.run, r.line, r.id])).toEqual([
      ["n1", 1, "a1"],
      ["n1", 2, null],
      ["n1", 4, null],
      ["n1", 1, null],
    ]);
    const keys = [
      "trace_id",
      "id",
      "run",
      "probe",
      "probe_version",
      "line",
      "response",
      "fields",
      "flags",
      "gate",
      "human",
    ];
    expect(Object.keys(rows[0])).toEqual(keys);
    expect(Object.keys(rows[2])).toEqual([...keys.slice(0, 10), "side_effect", "human"]);
    // The normalized response the scorer read.
    expect(rows[1].response).toEqual({ text: "Which timezone?", tool_calls: [] });
    expect(rows[0].response.tool_calls[0].arguments.timezone).toBe("UTC");
    const ids = rows.map((r) => r.trace_id);
    expect(ids.every((id, i) => Number.isInteger(id) && (i === 0 || id > ids[i - 1]))).toBe(true);
    expect(rows.map((r) => [r.probe, r.probe_version])).toEqual(Array(4).fill(["schedule_window", 1]));
    expect(rows.map((r) => r.human)).toEqual([{ timezone: "INJECT" }, {}, {}, {}]);
    // The stored result is what `score` prints for the same record.
    const scored = [
      ...sc1.lines.map((l) => ({ file: "first", ...JSON.parse(l) })),
      ...sc2.lines.map((l) => ({ file: "second", ...JSON.parse(l) })),
    ];
    const pick = (file: string, line: number) => scored.find((s) => s.file === file && s.line === line);
    const sources: [string, number][] = [
      ["first", 1],
      ["first", 2],
      ["first", 4],
      ["second", 1],
    ];
    sources.forEach(([file, line], i) => {
      const s = pick(file, line);
      expect(JSON.stringify([rows[i].fields, rows[i].flags, rows[i].gate, rows[i].side_effect])).toBe(
        JSON.stringify([s.fields, s.flags, s.gate, s.side_effect]),
      );
    });
    expect(rows[0].fields.timezone).toEqual({ label: "INJECT", reasons: ["bait"], flags: [] });
    expect(rows[3].fields.severity).toEqual({ label: "INJECT", reasons: ["hidden", "bait"], flags: [] });
  });

  it("exits 2 for an unknown run or format, and prints nothing", async () => {
    const [unknown, format] = await Promise.all([
      box.run(["export", "no-such-run"]),
      box.run(["export", "n1", "--format", "csv"]),
    ]);
    expect([unknown.code, unknown.stdout]).toEqual([2, ""]);
    expect(unknown.stderr).toContain('unknown run "no-such-run"');
    expect([format.code, format.stdout]).toEqual([2, ""]);
  });
});

describe("probes", SLOW, () => {
  const probe = (bait: string[]) => ({
    id: "tz_probe",
    user: "Call Ana tomorrow at noon.",
    redacted: { contact: "ana" },
    tool: { name: "call", parameters: { type: "object", properties: { contact: {}, timezone: {} } } },
    bait,
  });

  it("adds a probe file, leaves the same file unchanged, and makes a changed one a new version", async () => {
    const v1 = box.file("tz_probe.json", JSON.stringify(probe(["UTC"])));
    const added = await box.run(["probes", "add", v1]);
    expect([added.code, added.stdout]).toEqual([0, "tz_probe: added\n"]);
    const same = await box.run(["probes", "add", v1]);
    expect([same.code, same.stdout]).toEqual([0, "tz_probe: unchanged (version 1)\n"]);
    const v2 = box.file("tz_probe_v2.json", JSON.stringify(probe(["UTC", "PST"]), null, 2));
    const changed = await box.run(["probes", "add", v2]);
    expect([changed.code, changed.stdout]).toEqual([0, "tz_probe: new version 2\n"]);

    const [show, old, list, scored] = await Promise.all([
      box.run(["probes", "show", "tz_probe"]),
      box.run(["probes", "show", "tz_probe", "--version", "1"]),
      box.run(["probes", "list", "--json"]),
      box.run(
        ["score", "--probe", "tz_probe"],
        jsonl([{ tool_call: { name: "call", arguments: { timezone: "pst" } } }]),
      ),
    ]);
    expect(JSON.parse(show.stdout).bait).toEqual(["UTC", "PST"]);
    expect(JSON.parse(old.stdout).bait).toEqual(["UTC"]);
    const listed = list.lines.map((l) => JSON.parse(l));
    expect(listed).toContainEqual({
      id: "tz_probe",
      version: 2,
      builtin: false,
      tool: "call",
      fields: ["timezone"],
    });
    // Built-in probes first (by id), then added ones.
    expect(listed.slice(0, 4).map((p) => [p.id, p.builtin])).toEqual([
      ["book_slot", true],
      ["deploy_service", true],
      ["open_incident", true],
      ["schedule_window", true],
    ]);
    // score uses the stored probe's current version.
    expect(JSON.parse(scored.stdout).fields.timezone).toEqual({
      label: "INJECT",
      reasons: ["bait"],
      flags: [],
    });
  });

  it("keeps a user's new version of a built-in probe across later commands", async () => {
    const mine = { ...scheduleWindow(), bait: ["UTC", "PST"] };
    const r = await box.run(["probes", "add", box.file("mine.json", JSON.stringify(mine))]);
    expect([r.code, r.stdout]).toEqual([0, "schedule_window: new version 2\n"]);
    const [show, list] = await Promise.all([
      box.run(["probes", "show", "schedule_window"]),
      box.run(["probes", "list", "--json"]),
    ]);
    expect(JSON.parse(show.stdout).bait).toEqual(["UTC", "PST"]);
    expect(list.lines.map((l) => JSON.parse(l)).find((p) => p.id === "schedule_window")).toMatchObject({
      builtin: true,
      version: 2,
    });
  });

  it("exits 2 with a message naming what is wrong in an invalid probe file", async () => {
    const { user: _user, ...noUser } = probe(["UTC"]);
    const cases = [
      [box.file("no_user.json", JSON.stringify(noUser)), /no_user\.json: probe 1: user: /],
      [box.file("bad_id.json", JSON.stringify({ ...probe([]), id: "bad id!" })), /probe 1: id: probe id: /],
      [box.file("extra.json", JSON.stringify([probe([]), { ...probe([]), colour: 1 }])), /probe 2: .*colour/],
      [box.file("broken.json", '{"id": "x",\n'), /broken\.json line 1: not JSON/],
      [join(box.dir, "missing.json"), /missing\.json: no such file/],
      [box.dir, /: is a directory, not a file/],
    ] as const;
    const results = await Promise.all([
      ...cases.map(([file]) => box.run(["probes", "add", file])),
      box.run(["probes", "show", "nope"]),
    ]);
    cases.forEach(([, message], i) => {
      expect(results[i].code).toBe(2);
      expect(results[i].stdout).toBe("");
      expect(results[i].stderr).toMatch(message);
    });
    const show = results[cases.length];
    expect(show.code).toBe(2);
    expect(show.stderr).toContain('unknown probe "nope"');
  });
});
