import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labelItems } from "./commands/label";
import { ARGS, cliSandbox, jsonl } from "./testCli";

const box = cliSandbox("cli-label");
afterAll(box.cleanup);
// Each test spawns the CLI (tsx compiles it on start): slow on a loaded machine.
const SLOW = { timeout: 120_000 };

const ids = new Map<string, number>();
beforeAll(async () => {
  const file = box.file(
    "l.jsonl",
    jsonl([
      {
        id: "q",
        run: "lab",
        model: "m",
        response: { text: "Which region is u_9182 in? I need that to place 09:00 correctly." },
      },
      {
        id: "u",
        run: "lab",
        model: "m",
        response: { tool_call: { name: "schedule_window", arguments: { ...ARGS, timezone: "UTC" } } },
        human: { timezone: "COPY" },
      },
    ]),
  );
  const ing = await box.run(["ingest", file, "--json", "--no-progress"]);
  expect(ing.code).toBe(0);
  const exp = await box.run(["export", "lab"]);
  for (const l of exp.lines) {
    const r = JSON.parse(l);
    ids.set(r.id, r.trace_id);
  }
}, 180_000);

const label = (args: string[]) => box.run(["label", ...args]);
const last = (lines: string[]) => JSON.parse(lines[lines.length - 1]);

describe("assumeprobe label", SLOW, () => {
  it("writes reviews, prints them with empty fixtures, and export and filters see the current human label", async () => {
    const q = String(ids.get("q"));
    const r = await label([
      q,
      "timezone=ask",
      "severity=DRIFT",
      "--reviewer",
      "ana",
      "--note",
      "asks for the region",
    ]);
    expect(r.code).toBe(0);
    const out = last(r.lines);
    expect(Object.keys(out)).toEqual(["reviews", "fixtures"]);
    expect(out.fixtures).toEqual([]);
    expect(
      out.reviews.map((x: Record<string, unknown>) => [x.field, x.label, x.reviewer, x.note, x.replaces]),
    ).toEqual([
      ["timezone", "ASK", "ana", "asks for the region", null],
      ["severity", "DRIFT", "ana", "asks for the region", null],
    ]);
    for (const x of out.reviews) {
      expect(Object.keys(x)).toEqual([
        "id",
        "trace_id",
        "field",
        "label",
        "reviewer",
        "note",
        "replaces",
        "created_at",
      ]);
      expect(x.trace_id).toBe(Number(q));
    }
    const exp = (await box.run(["export", "lab"])).lines.map((l) => JSON.parse(l));
    expect(exp.find((e) => e.id === "q").human).toEqual({ timezone: "ASK", severity: "DRIFT" });
  });

  it("on a conflict writes nothing, prints the current review and exits 1; --base resubmits over it", async () => {
    const q = String(ids.get("q"));
    const r = await label([q, "timezone=OMIT", "--reviewer", "bo"]);
    expect(r.code).toBe(1);
    const out = last(r.lines);
    expect(out.conflicts).toHaveLength(1);
    expect(out.conflicts[0]).toMatchObject({
      field: "timezone",
      current: { label: "ASK", reviewer: "ana", note: "asks for the region" },
    });
    expect(out.conflicts[0].current.created_at).toBeTruthy();
    const seen = out.conflicts[0].current.id;
    const again = await label([q, "timezone=OMIT", "--reviewer", "bo", "--base", `timezone=${seen}`]);
    expect(again.code).toBe(0);
    expect(last(again.lines).reviews[0]).toMatchObject({ label: "OMIT", reviewer: "bo", replaces: seen });
  });

  it("clears with FIELD=-: the human label falls back to the imported one", async () => {
    const u = String(ids.get("u"));
    const first = last((await label([u, "timezone=INJECT", "--reviewer", "ana"])).lines);
    const r = await label([
      u,
      "timezone=-",
      "--reviewer",
      "ana",
      "--base",
      `timezone=${first.reviews[0].id}`,
    ]);
    expect(r.code).toBe(0);
    expect(last(r.lines).reviews[0].label).toBe(null);
    const exp = (await box.run(["export", "lab"])).lines.map((l) => JSON.parse(l));
    expect(exp.find((e) => e.id === "u").human).toEqual({ timezone: "COPY" });
  });

  it("exits 2 with a clear message for every usage mistake, and writes nothing", async () => {
    const q = String(ids.get("q"));
    const cases: [string[], RegExp][] = [
      [["999999", "timezone=ASK", "--reviewer", "a"], /no trace 999999/],
      [["abc", "timezone=ASK", "--reviewer", "a"], /trace id must be a positive integer/],
      [[q, "zone=ASK", "--reviewer", "a"], /no probed field "zone" \(its fields: timezone, severity\)/],
      [
        [q, "timezone=MAYBE", "--reviewer", "a"],
        /must be one of ASK, OMIT, COPY, INJECT, DRIFT, ERROR, or - to clear/,
      ],
      [[q, "timezone", "--reviewer", "a"], /FIELD=LABEL/],
      [[q, "timezone=ASK"], /--reviewer/],
      [[q, "timezone=ASK", "--reviewer", " "], /reviewer name is required/],
      [[q, "timezone=ASK", "--reviewer", "a", "--set", "seed"], /the seed set is read-only/],
      [[q, "timezone=ASK", "--reviewer", "a", "--set", "my set"], /--set: .*letters, digits/],
      [[q, "timezone=ASK", "--reviewer", "a", "--base", "severity=3"], /not among the fields being labelled/],
      [
        [q, "timezone=ASK", "--reviewer", "a", "--base", "timezone=x"],
        /review id must be a positive integer/,
      ],
    ];
    const before = (await box.run(["export", "lab"])).stdout;
    for (const [args, message] of cases) {
      const r = await label(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toMatch(message);
    }
    expect((await box.run(["export", "lab"])).stdout).toBe(before);
  });
});

describe("labelItems", () => {
  it("reads FIELD=LABEL in any case, - as a clear, and pairs each --base with its field", () => {
    expect(labelItems(["timezone=ask", "a=b=-"], ["timezone=12"])).toEqual([
      { field: "timezone", label: "ASK", base: 12 },
      { field: "a=b", label: null, base: null },
    ]);
    expect(() => labelItems(["timezone=ASK", "timezone=OMIT"], [])).toThrow(/named twice/);
    expect(() => labelItems(["timezone=ASK"], ["timezone=1", "timezone=2"])).toThrow(/twice/);
    expect(() => labelItems(["timezone="], [])).toThrow(/must be one of/);
  });
});
