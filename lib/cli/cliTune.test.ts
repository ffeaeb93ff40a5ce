import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../root";
import { cliSandbox } from "./testCli";

const box = cliSandbox("cli-tune");
afterAll(box.cleanup);
const SLOW = { timeout: 180_000 };
const HERON = join(projectRoot(), "fixtures", "demo", "heron-mini-2026-11-29.jsonl");
const RUN = "heron-mini/nightly-2026-11-29";

const query = <T>(sql: string, ...args: unknown[]) => box.query<T>(sql, ...args);
const lexiconVersion = () => box.lexiconVersion();
const labelOf = (ext: string) =>
  JSON.parse(query<{ labels: string }>("SELECT labels FROM traces WHERE ext_id = ?", ext)[0].labels).timezone;

beforeAll(async () => {
  expect((await box.run(["setup"])).code).toBe(0);
  expect((await box.run(["ingest", HERON])).code).toBe(0);
}, 120_000);

describe("tuning from the command line", SLOW, () => {
  it("--dry-run prints the what-if and saves nothing", async () => {
    const r = await box.run(["lexicon", "edit", "--add", "timezone=region", "--dry-run"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/what-if: timezone \+"region"/);
    expect(r.stdout).toMatch(/timezone DRIFT → ASK: 3/);
    expect(r.stdout).toMatch(/dry run: nothing saved/);
    expect(lexiconVersion()).toBe(0);
  });

  it("refuses a change that breaks a seed fixture (exit 1, nothing saved) unless --allow-break", async () => {
    const refused = await box.run([
      "lexicon",
      "edit",
      "--rule",
      "timezone=question",
      "--by",
      "mira",
      "--json",
    ]);
    // The seed's ASK fixture asks in a question: the rule alone breaks nothing. Dropping the
    // probe's term does, through probes edit:
    expect(refused.code).toBe(0);
    const out = JSON.parse(refused.lines[refused.lines.length - 1]);
    expect(out.saved).toEqual({ version: 1, created: true });
    const broken = await box.run([
      "probes",
      "edit",
      "schedule_window",
      "--no-ask-term",
      "timezone=timezone",
      "--by",
      "mira",
    ]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/breaks 1 fixture of the seed set: nothing saved/);
    expect(
      query("SELECT 1 FROM probe_versions WHERE probe_id = 'schedule_window' AND origin = 'edit'"),
    ).toEqual([]);
    const allowed = await box.run([
      "probes",
      "edit",
      "schedule_window",
      "--no-ask-term",
      "timezone=timezone",
      "--by",
      "mira",
      "--allow-break",
      "--json",
    ]);
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.lines[allowed.lines.length - 1]).saved.created).toBe(true);
    // Put the term back for the tests below.
    const back = await box.run([
      "probes",
      "edit",
      "schedule_window",
      "--ask-term",
      "timezone=timezone",
      "--by",
      "mira",
    ]);
    expect(back.code).toBe(0);
    expect((await box.run(["lexicon", "edit", "--rule", "timezone=anywhere", "--by", "mira"])).code).toBe(0);
  });

  it("saves with --by, lists the lexicon, and --rescore re-scores the runs it applies to", async () => {
    expect(labelOf("sw-0002")).toBe("DRIFT");
    const r = await box.run([
      "lexicon",
      "edit",
      "--add",
      "timezone=region",
      "--by",
      "mira",
      "--rescore",
      "--json",
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.lines[r.lines.length - 1]);
    expect(out.what_if.traces.moved).toBe(3);
    expect(out.rescores).toHaveLength(1);
    expect(out.rescores[0]).toMatchObject({ run: RUN, changed: 3, status: "done" });
    expect(labelOf("sw-0002")).toBe("ASK");
    const list = await box.run(["lexicon", "--json"]);
    expect(JSON.parse(list.lines[0])).toEqual({
      version: lexiconVersion(),
      entries: { timezone: { terms: ["region"], rule: "anywhere" } },
    });
    const versions = await box.run(["lexicon", "versions"]);
    expect(versions.lines[0]).toMatch(/\tmira\tedit\ttimezone \+"region"$/);
  });

  it("rescore RUN applies the current configuration; unchanged, it changes nothing", async () => {
    const r = await box.run(["rescore", RUN, "--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.lines[0]);
    expect(out.rescores[0]).toMatchObject({ run: RUN, changed: 0, checked: 0, scanned: 105 });
  });

  it("usage errors exit 2 with what was wrong", async () => {
    const cases: [string[], RegExp][] = [
      [["lexicon", "edit"], /say what to change/],
      [["lexicon", "edit", "--rule", "timezone=maybe"], /anywhere or question/],
      [["lexicon", "edit", "--add", "timezone"], /FIELD=TERM/],
      [["lexicon", "edit", "--add", "timezone=lo*c"], /only end a term/],
      [["lexicon", "edit", "--remove", "timezone=nope"], /no term "nope"/],
      [["lexicon", "list", "--version", "99"], /no version 99/],
      [["probes", "edit", "nope", "--bait", "x"], /unknown probe "nope"/],
      [["probes", "edit", "schedule_window"], /say what to change/],
      [["probes", "edit", "schedule_window", "--ask-term", "zone=x"], /does not probe "zone"/],
      [["probes", "edit", "schedule_window", "--no-bait", "nope"], /no bait "nope"/],
      [["rescore", "nope"], /unknown run "nope"/],
    ];
    for (const [args, message] of cases) {
      const r = await box.run(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toMatch(message);
    }
  });
});
