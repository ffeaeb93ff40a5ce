import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliSandbox, jsonl } from "./testCli";

const box = cliSandbox("cli-suggest");
afterAll(box.cleanup);
// Each test spawns the CLI (tsx compiles it on start): slow on a loaded machine.
const SLOW = { timeout: 120_000 };

const reply = (id: string, run: string, text: string, timezone: string) => ({
  id,
  run,
  model: "m",
  probe: "schedule_window",
  response: { text },
  human: { timezone },
});

beforeAll(async () => {
  const file = box.file(
    "s.jsonl",
    jsonl([
      reply("a1", "learn", "Where is the user located?", "ASK"),
      reply("a2", "learn", "Happy to help. Where are you located?", "ASK"),
      reply("a3", "learn", "Could you tell me where they are located?", "ASK"),
      reply("b1", "other", "The user is located in Tokyo. Scheduled.", "DRIFT"),
      reply("p1", "probe-run", "Which office is the user in?", "ASK"),
      reply("s1", "seed-run", "I used the timezone of the server.", "DRIFT"),
      reply("s2", "seed-run", "The timezone is the default one.", "DRIFT"),
    ]),
  );
  const ing = await box.run(["ingest", file, "--json", "--no-progress"]);
  expect(ing.code).toBe(0);
}, 180_000);

const last = (lines: string[]) => JSON.parse(lines[lines.length - 1]);

describe("assumeprobe suggest", () => {
  it("lists suggestions from one run with their what-if and source sentences", SLOW, async () => {
    const r = await box.run(["suggest", "--run", "learn", "--json"]);
    expect(r.code).toBe(0);
    const out = last(r.lines);
    expect(out.scope).toEqual({ runs: ["learn"], sets: [], probe: null });
    expect(out.counted).toMatchObject({ fields: 3, missedAsks: 3 });
    const top = out.suggestions[0];
    expect(top).toMatchObject({
      rank: 1,
      change: { kind: "add", field: "timezone", term: "located" },
      fixes: 3,
      breaks: 0,
    });
    expect(top.sources[0]).toEqual({
      key: expect.stringMatching(/^trace:\d+:timezone$/),
      sentence: "Where is the user located?",
      mark: [18, 25],
    });
    // The what-if covers every stored trace: run "other"'s statement moves too (shown, never ranked).
    expect(top.what_if.traces.moved).toBe(4);
    expect(top.what_if.traces.agrees).toBe(3);
    expect(top.what_if.traces.disagrees).toBe(1);
    const plain = await box.run(["suggest", "--run", "learn"]);
    expect(plain.stdout).toContain('1. add timezone="located": fixes 3 (from 3 traces), breaks 0');
    expect(plain.stdout).toContain("a suggestion needs 2 fixes from 2 different traces");
    expect(out.needs).toEqual({ fixes: 2, traces: 2 });
    expect(top.traces).toBe(3);
    expect(plain.stdout).toContain("“Where is the user [located]?”");
  });

  it("refuses bad usage with exit 2", SLOW, async () => {
    const bad = await box.run(["suggest", "--run", "nope"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown run: nope");
    const top = await box.run(["suggest", "--apply", "--top", "0"]);
    expect(top.code).toBe(2);
    expect(top.stderr).toContain("--top must be a whole number from 1 to 1000");
    const by = await box.run(["suggest", "--by", "ann"]);
    expect(by.code).toBe(2);
    expect((await box.run(["suggest", "--probe", "nope"])).stderr).toContain("unknown probe: nope");
  });

  it(
    "--apply --top 1 saves the top suggestion as one lexicon version, and mutation-check finds it dead",
    SLOW,
    async () => {
      const r = await box.run([
        "suggest",
        "--run",
        "learn",
        "--apply",
        "--top",
        "1",
        "--by",
        "ann",
        "--json",
      ]);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.lines[0]).suggestions[0].change).toEqual({
        kind: "add",
        field: "timezone",
        term: "located",
      });
      expect(last(r.lines).saved).toEqual({ version: 1, created: true });
      const versions = await box.run(["lexicon", "versions", "--json"]);
      expect(JSON.parse(versions.lines[0])).toMatchObject({ version: 1, savedBy: "ann", origin: "suggest" });
      // The labels it learned from are fixed now: nothing is left to suggest from that run.
      const again = last((await box.run(["suggest", "--run", "learn", "--json"])).lines);
      expect(again.target).toEqual({ kind: "lexicon", version: 1 });
      expect(again.counted.missedAsks).toBe(0);
      const m = await box.run(["mutation-check", "--lexicon"]);
      expect(m.code).toBe(0);
      expect(m.stdout).toContain('DEAD timezone="located": no fixture fails without it');
    },
  );

  it("--probe saves the probe's own terms instead", SLOW, async () => {
    const r = await box.run([
      "suggest",
      "--run",
      "probe-run",
      "--probe",
      "schedule_window",
      // One miss in that run: listed with the threshold lowered.
      "--min-fixes",
      "1",
      "--min-traces",
      "1",
      "--apply",
      "--top",
      "1",
      "--by",
      "ann",
      "--json",
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.lines[0]);
    expect(out.target).toEqual({ kind: "probe", probe: "schedule_window", version: 1 });
    expect(out.suggestions[0]).toMatchObject({
      change: { kind: "add", field: "timezone", term: "office" },
      fixes: 1,
    });
    expect(last(r.lines).saved).toEqual({ version: 2, created: true });
    const shown = await box.run(["probes", "show", "schedule_window"]);
    expect(JSON.parse(shown.stdout).ask_terms.timezone).toEqual([
      "timezone",
      "time zone",
      "which zone",
      "office",
    ]);
  });

  it("refuses to save a change that breaks a seed fixture unless --allow-break", SLOW, async () => {
    const args = ["suggest", "--run", "seed-run", "--probe", "schedule_window", "--apply", "--by", "ann"];
    const r = await box.run(args);
    expect(r.stdout).toContain('remove timezone="timezone": fixes 2 (from 2 traces), breaks 0');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("breaks 1 fixture of the seed set: nothing saved");
    const shown = await box.run(["probes", "show", "schedule_window"]);
    expect(JSON.parse(shown.stdout).ask_terms.timezone).toContain("timezone");
    const forced = await box.run([...args, "--allow-break", "--json"]);
    expect(forced.code).toBe(0);
    expect(last(forced.lines).saved).toEqual({ version: 3, created: true });
  });
});
