import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TERM_LIMITS } from "../lexicon/limits";
import { cliSandbox, jsonl } from "./testCli";

/**
 * Every writer of ask terms refuses what passes the limits (lib/lexicon/limits.ts), naming the
 * field or term and the limit, and keeps everything else it was given.
 */
const box = cliSandbox("cli-limits");
afterAll(box.cleanup);
const SLOW = { timeout: 240_000 };
const many = (n: number, prefix = "term") => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

const query = <T>(sql: string, ...args: unknown[]) => box.query<T>(sql, ...args);
const lexiconVersion = () => box.lexiconVersion();
const last = (lines: string[]) => JSON.parse(lines[lines.length - 1]);

beforeAll(async () => {
  expect((await box.run(["setup"])).code).toBe(0);
}, 180_000);

describe("limits on ask terms, from the command line", SLOW, () => {
  it("lexicon edit --add with 10,000 terms exits 2 naming the limit and saves nothing", async () => {
    const r = await box.run(["lexicon", "edit", ...many(10_000).flatMap((t) => ["--add", `timezone=${t}`])]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/timezone: 10,000 terms; a field holds at most 500 \(9,500 too many\)/);
    expect(lexiconVersion()).toBe(0);
  });

  it("lexicon edit refuses a term with a control character, or one too long, or too many fields", async () => {
    const ctl = await box.run(["lexicon", "edit", "--add", "timezone=zone\u0001"]);
    expect(ctl.code).toBe(2);
    expect(ctl.stderr).toMatch(/control character \(U\+0001\)/);
    const long = await box.run(["lexicon", "edit", "--add", `timezone=${"x".repeat(101)}`]);
    expect(long.code).toBe(2);
    expect(long.stderr).toMatch(/a term holds at most 100/);
    const wide = await box.run(["lexicon", "edit", ...many(201, "f").flatMap((f) => ["--add", `${f}=x`])]);
    expect(wide.code).toBe(2);
    expect(wide.stderr).toMatch(/the lexicon has terms for 201 fields; at most 200/);
    expect(lexiconVersion()).toBe(0);
  });

  it("a lexicon at the limits saves, and one more term is refused", async () => {
    const full = many(TERM_LIMITS.termsPerField).flatMap((t) => ["--add", `timezone=${t}`]);
    expect((await box.run(["lexicon", "edit", ...full, "--by", "mira"])).code).toBe(0);
    expect(lexiconVersion()).toBe(1);
    const more = await box.run(["lexicon", "edit", "--add", "timezone=one more", "--by", "mira"]);
    expect(more.code).toBe(2);
    expect(more.stderr).toMatch(/timezone: 501 terms; a field holds at most 500/);
    expect(lexiconVersion()).toBe(1);
  });

  it("probes edit refuses past the limits before its what-if", async () => {
    const r = await box.run([
      "probes",
      "edit",
      "schedule_window",
      ...many(600).flatMap((t) => ["--ask-term", `timezone=${t}`]),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/probes edit schedule_window: timezone: 603 terms; a field holds at most 500/);
    expect(r.stdout).toBe("");
    const ctl = await box.run(["probes", "edit", "schedule_window", "--ask-term", "timezone=zone\u0002"]);
    expect(ctl.code).toBe(2);
    expect(ctl.stderr).toMatch(/U\+0002/);
  });

  it("probes add refuses a probe file past the limits or with a NUL term", async () => {
    const probe = (id: string, ask_terms: Record<string, string[]>) =>
      JSON.stringify({
        id,
        user: "When?",
        tool: { name: "t", parameters: { properties: { when: {} } } },
        ask_terms,
      });
    const big = await box.run(["probes", "add", box.file("big.json", probe("big", { when: many(600) }))]);
    expect(big.code).toBe(2);
    expect(big.stderr).toMatch(/probe 1: ask_terms: when: 600 terms; a field holds at most 500/);
    const nul = await box.run([
      "probes",
      "add",
      box.file("nul.json", probe("nul", { when: ["wh\u0000en"] })),
    ]);
    expect(nul.code).toBe(2);
    expect(nul.stderr).toMatch(/U\+0000/);
    expect(query("SELECT id FROM probes WHERE id IN ('big', 'nul')")).toEqual([]);
  });

  it("ingest rejects a record whose inline probe is past the limits and stores the others", async () => {
    const inline = (id: string, terms: string[]) => ({
      id,
      run: "inline-run",
      model: "m",
      probe: {
        id: "inline_p",
        user: "When?",
        tool: { name: "t", parameters: { properties: { when: {} } } },
        ask_terms: { when: terms },
      },
      response: { text: "When?" },
    });
    const file = box.file(
      "inline.jsonl",
      jsonl([inline("ok", ["when"]), inline("big", many(600)), inline("ok2", ["when"])]),
    );
    const r = await box.run(["ingest", file, "--json", "--no-progress"]);
    expect(r.code).toBe(1);
    const sum = last(r.lines);
    expect(sum).toMatchObject({ ingested: 2, rejected: 1 });
    expect(sum.errors[0]).toMatchObject({ line: 2 });
    expect(sum.errors[0].reason).toMatch(/when: 600 terms; a field holds at most 500/);
  });

  it("fixtures import lists a line whose lexicon entry or ask terms pass the limits, and keeps the lines around it", async () => {
    const seed = (await box.run(["fixtures", "export", "seed"])).lines.map((l) => JSON.parse(l));
    expect(seed.length).toBe(4);
    const lines = seed.map((l, i) => {
      const c = { ...l.configuration };
      if (i === 0) c.lexicon = { terms: ["zone"], rule: "anywhere" };
      if (i === 1) c.lexicon = { terms: many(600), rule: "anywhere" };
      if (i === 2) c.ask_terms = { timezone: ["time\u0000zone"] };
      return JSON.stringify({ ...l, configuration: c });
    });
    const r = await box.run([
      "fixtures",
      "import",
      box.file("fx.jsonl", `${lines.join("\n")}\n`),
      "--set",
      "mine",
      "--json",
    ]);
    expect(r.code).toBe(1);
    const sum = last(r.lines);
    expect(sum).toMatchObject({ lines: 4, added: 2, rejected: 2 });
    expect(sum.errors.map((e: { line: number }) => e.line)).toEqual([2, 3]);
    expect(sum.errors[0].reason).toMatch(/600 terms; a field holds at most 500/);
    expect(sum.errors[1].reason).toMatch(/U\+0000/);
  });
});
