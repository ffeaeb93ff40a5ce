import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPytest, SEED_SCORER_PY } from "../fixtures/testPython";
import { cliSandbox, jsonl } from "./testCli";

const box = cliSandbox("cli-fixtures");
const fresh = cliSandbox("cli-fixtures-fresh");
afterAll(() => {
  box.cleanup();
  fresh.cleanup();
});
// Each test spawns the CLI several times: slow on a loaded machine.
const SLOW = { timeout: 180_000 };
const REGION = "Which region is u_9182 in? I need that to place 09:00 correctly.";

const ids = new Map<string, number>();
beforeAll(async () => {
  const file = box.file(
    "f.jsonl",
    jsonl([
      { id: "q", run: "lab", model: "m", response: { text: REGION } },
      { id: "ask", run: "lab", model: "m", response: { text: "Which timezone is the user in?" } },
      {
        id: "u",
        run: "lab",
        model: "m",
        response: { tool_call: { arguments: { timezone: "UTC" } } },
        human: { timezone: "INJECT" },
      },
    ]),
  );
  expect((await box.run(["ingest", file, "--json", "--no-progress"])).code).toBe(0);
  for (const l of (await box.run(["export", "lab"])).lines) {
    const r = JSON.parse(l);
    ids.set(r.id, r.trace_id);
  }
}, 180_000);

const last = (lines: string[]) => JSON.parse(lines[lines.length - 1]);

describe("assumeprobe label --set and fixtures", SLOW, () => {
  it("label --set reviews and adds each field to the set (created), printing the fixtures", async () => {
    const q = String(ids.get("q"));
    const r = await box.run([
      "label",
      q,
      "timezone=ASK",
      "--reviewer",
      "ana",
      "--note",
      "region is the zone",
      "--set",
      "regressions",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = last(r.lines);
    expect(out.reviews).toHaveLength(1);
    expect(out.fixtures).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{64}$/),
        set: "regressions",
        field: "timezone",
        expected: "ASK",
        outcome: "added",
      },
    ]);
    // The same case again with another label: the same fixture, relabelled.
    const again = await box.run([
      "label",
      q,
      "timezone=DRIFT",
      "--reviewer",
      "bo",
      "--base",
      `timezone=${out.reviews[0].id}`,
      "--set",
      "regressions",
    ]);
    expect(last(again.lines).fixtures[0]).toMatchObject({
      id: out.fixtures[0].id,
      expected: "DRIFT",
      outcome: "relabelled",
    });
    const back = await box.run([
      "label",
      q,
      "timezone=ASK",
      "--reviewer",
      "ana",
      "--base",
      `timezone=${last(again.lines).reviews[0].id}`,
      "--set",
      "regressions",
    ]);
    expect(back.code).toBe(0);
    // A clear takes the imported label, when there is one.
    const u = await box.run([
      "label",
      String(ids.get("u")),
      "timezone=-",
      "--reviewer",
      "ana",
      "--set",
      "regressions",
    ]);
    expect(last(u.lines).fixtures).toEqual([
      expect.objectContaining({ field: "timezone", expected: "INJECT" }),
    ]);
    const a = await box.run([
      "label",
      String(ids.get("ask")),
      "timezone=ASK",
      "--reviewer",
      "ana",
      "--set",
      "regressions",
    ]);
    expect(a.code).toBe(0);
    // A conflict writes neither the review nor the fixture.
    const conflict = await box.run(["label", q, "timezone=OMIT", "--reviewer", "cy", "--set", "other"]);
    expect(conflict.code).toBe(1);
    expect(last(conflict.lines).conflicts[0].field).toBe("timezone");
    const list = await box.run(["fixtures", "list", "--json"]);
    expect(list.lines.map((l) => JSON.parse(l)).map((s) => [s.set, s.fixtures, s.builtin])).toEqual([
      ["seed", 4, true],
      ["regressions", 3, false],
    ]);
  });

  it("fixtures check re-runs, prints each failure with why, exits 1 when any fails and 0 when all pass", async () => {
    const seed = await box.run(["fixtures", "check", "seed"]);
    expect(seed.code, seed.stderr).toBe(0);
    expect(seed.lines[0]).toBe("seed: 4 of 4 pass (100%)");
    const r = await box.run(["fixtures", "check", "regressions"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("regressions: 2 of 3 pass (66.7%)");
    expect(r.stdout).toMatch(
      /FAIL +[0-9a-f]{12} {2}schedule_window timezone {2}expected ASK, got DRIFT: no call, and the text holds none of the ask terms "timezone", "time zone", "which zone"/,
    );
    const json = await box.run(["fixtures", "check", "--json"]);
    expect(json.code).toBe(1);
    const sets = json.lines.map((l) => JSON.parse(l));
    expect(sets.map((s) => [s.set, s.passed, s.failed, s.broke, s.fixed, s.new])).toEqual([
      ["seed", 4, 0, 0, 0, 0],
      ["regressions", 2, 1, 0, 0, 0],
    ]);
    expect(sets[1].failures[0].why.terms).toEqual(["timezone", "time zone", "which zone"]);
    const unknown = await box.run(["fixtures", "check", "nope"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown fixture set "nope"/);
  });

  it("shows a flip after the scorer changed (a new probe version through probes add)", async () => {
    const sw = JSON.parse(readFileSync("fixtures/probes/schedule_window.json", "utf8"));
    sw.ask_terms.timezone = ["timezone", "time zone", "region"];
    const added = await box.run(["probes", "add", box.file("sw2.json", JSON.stringify(sw))]);
    expect(added.stdout).toContain("schedule_window: new version 2");
    const r = await box.run(["fixtures", "check", "regressions"]);
    expect(r.code).toBe(0);
    expect(r.lines[0]).toBe("regressions: 3 of 3 pass (100%), 1 FLIP (1 fixed) since the previous re-run");
    expect(r.stdout).toContain("scorer changed since the previous re-run: schedule_window v1 → v2");
    expect(r.stdout).toMatch(/FIXED +[0-9a-f]{12} {2}schedule_window timezone {2}expected ASK, got ASK/);
    // Back to the built-in terms: the fixed one breaks, loudly.
    sw.ask_terms.timezone = ["timezone", "time zone", "which zone"];
    await box.run(["probes", "add", box.file("sw3.json", JSON.stringify(sw))]);
    const broke = await box.run(["fixtures", "check", "regressions"]);
    expect(broke.code).toBe(1);
    expect(broke.lines[0]).toMatch(/1 FLIP \(1 broke\)/);
    expect(broke.stdout).toMatch(/BROKE +[0-9a-f]{12}/);
    const show = await box.run(["fixtures", "show", "regressions"]);
    expect(show.stdout).toContain("3 fixtures");
    // The last relabel (back to ASK, no note) is the fixture's reviewer and note now; its history keeps the rest.
    expect(show.stdout).toMatch(/expected ASK {2}FAIL \(DRIFT\) {2}by ana$/m);
  });

  it("exports JSONL that a fresh database imports and exports again byte for byte; re-import adds nothing", async () => {
    const once = await box.run(["fixtures", "export", "regressions"]);
    expect(once.code).toBe(0);
    expect(once.lines).toHaveLength(3);
    const file = fresh.file("regressions.jsonl", once.stdout);
    const imp = await fresh.run(["fixtures", "import", file, "--json"]);
    expect(imp.code, imp.stderr).toBe(0);
    expect(last(imp.lines)).toMatchObject({
      added: 3,
      rejected: 0,
      sets: [{ name: "regressions", created: true }],
    });
    const twice = await fresh.run(["fixtures", "export", "regressions"]);
    expect(twice.stdout).toBe(once.stdout);
    const again = await fresh.run(["fixtures", "import", file]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("3 lines: 0 added, 0 relabelled, 3 already there, 0 rejected");
    const seed = await fresh.run(["fixtures", "import", file, "--set", "seed"]);
    expect(seed.code).toBe(2);
    expect(seed.stderr).toMatch(/seed set is read-only/);
    const bad = await fresh.run([
      "fixtures",
      "import",
      fresh.file("bad.jsonl", `${once.lines[0]}\nnot json\n`),
      "--set",
      "x",
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^line 2: not JSON/m);
    expect(bad.stdout).toContain("2 lines: 1 added, 0 relabelled, 0 already there, 1 rejected · x (new)");
    const missing = await fresh.run(["fixtures", "import", "no-such-file.jsonl"]);
    expect(missing.code).toBe(2);
  });

  it("exports the seed as a pytest module that passes against the seed's own score_trace", async () => {
    const seed = await box.run(["fixtures", "export", "seed", "--format", "pytest"]);
    expect(seed.code).toBe(0);
    const run = runPytest({ "assumeprobe.py": SEED_SCORER_PY, "test_seed.py": seed.stdout }, "test_seed.py");
    expect(run.output).toMatch(/4 passed/);
    const ref = await box.run([
      "fixtures",
      "export",
      "regressions",
      "--format",
      "pytest",
      "--with-reference",
    ]);
    const alone = runPytest({ "test_regressions.py": ref.stdout }, "test_regressions.py");
    // Under the built-in terms the region question is DRIFT: the file fails exactly there, as check does.
    expect(alone.output).toMatch(/1 failed, 2 passed/);
    const usage = await box.run([
      "fixtures",
      "export",
      "seed",
      "--module",
      "not a module",
      "--format",
      "pytest",
    ]);
    expect(usage.code).toBe(2);
    expect((await box.run(["fixtures", "export", "seed", "--with-reference"])).code).toBe(2);
  });
});
