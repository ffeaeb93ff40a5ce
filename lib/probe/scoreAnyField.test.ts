import { describe, expect, it } from "vitest";
import { AskText } from "../lexicon/ask";
import { applyLexiconEdit, type Lexicon, type LexiconEntry } from "../lexicon/lexicon";
import { footprint } from "../tuning/footprint";
import { compileProbe } from "./compile";
import type { NormalizedResponse } from "./response";
import { ProbeSchema } from "./schema";
import { scoreTrace } from "./score";
import { scheduleWindow } from "./testProbes";

const SW = scheduleWindow();
const lexicon = (entries: Record<string, LexiconEntry>, version = 1): Lexicon => ({ version, entries });
const text = (t: string): NormalizedResponse => ({ text: t, tool_calls: [], fenced: false });
const labels = (p: ReturnType<typeof compileProbe>, t: string) =>
  Object.fromEntries(
    Object.entries(scoreTrace({ response: text(t) }, p).fields).map(([f, s]) => [f, s.label]),
  );

describe("the lexicon's `*` entry", () => {
  it("counts its terms for every probed field of the probe, beside the field's own entry", () => {
    const p = compileProbe(SW, lexicon({ "*": { terms: ["where"], rule: "anywhere" } }));
    const got = labels(p, "Sure, where should this go");
    expect(Object.keys(got).length).toBeGreaterThan(0);
    for (const f of p.fields) expect(got[f]).toBe("ASK");
    // Whole words, as every lexicon term.
    for (const f of p.fields) expect(labels(p, "Somewhere nice.")[f]).toBe("DRIFT");
  });

  it("applies its own rule to its own terms only", () => {
    const p = compileProbe(
      SW,
      lexicon({
        "*": { terms: ["where"], rule: "question" },
        timezone: { terms: ["zone"], rule: "anywhere" },
      }),
    );
    // `*` under the question rule: outside a question it does not count.
    expect(labels(p, "I booked it where you said.").timezone).toBe("DRIFT");
    expect(labels(p, "Where should this go?").timezone).toBe("ASK");
    // The field's own entry keeps its anywhere rule.
    expect(labels(p, "I used the default zone.").timezone).toBe("ASK");
    // And the `*` rule does not narrow the probe's own terms.
    expect(labels(p, "I used the default timezone.").timezone).toBe("ASK");
  });

  it("lists its terms in what a reply was found to hold, by source", () => {
    const p = compileProbe(SW, lexicon({ "*": { terms: ["where"], rule: "anywhere" } }));
    const ask = p.ask.timezone;
    expect(ask.anyTerms).toEqual(["where"]);
    const t = new AskText("where to?");
    expect(ask.found(t)).toContain("where");
    expect([...ask.foundBySource(t).any]).toEqual(["where"]);
    expect(ask.anyMatches("so, where to?")).toEqual([{ start: 4, end: 9, term: "where" }]);
  });

  it("is part of what a change can move for every field (footprint)", () => {
    const before = compileProbe(SW, lexicon({}, 1));
    const after = compileProbe(SW, lexicon({ "*": { terms: ["where"], rule: "anywhere" } }, 2));
    const fp = footprint(before, after);
    expect(fp).not.toBeNull();
    expect([...(fp?.ask.keys() ?? [])].sort()).toEqual([...before.fields].sort());
    expect(fp?.needles).toEqual(["where"]);
    // A change of the `*` rule alone moves fields too.
    const q = compileProbe(SW, lexicon({ "*": { terms: ["where"], rule: "question" } }, 3));
    expect(footprint(after, q)?.ask.get("timezone")).toEqual({ fromDrift: false, fromAsk: true });
  });

  it("is edited as any entry (`*=term`)", () => {
    const e = applyLexiconEdit(
      {},
      { add: [{ field: "*", term: "Where" }], rule: [{ field: "*", rule: "question" }] },
    );
    expect(e).toEqual({ "*": { terms: ["where"], rule: "question" } });
  });

  it("is reserved: a probe field named `*` is refused, naming why", () => {
    const base = { id: "p", user: "u", tool: { name: "t" } };
    const bad = [
      { ...base, fields: ["*"] },
      { ...base, ask_terms: { "*": ["x"] } },
      {
        ...base,
        tool: { name: "t", parameters: { type: "object", properties: { "*": { type: "string" } } } },
      },
    ];
    for (const probe of bad) {
      const r = ProbeSchema.safeParse(probe);
      expect(r.success).toBe(false);
      expect(r.error?.issues.map((i) => i.message).join(" ")).toMatch(/cannot be named "\*"/);
    }
    expect(ProbeSchema.safeParse({ ...base, fields: ["x"] }).success).toBe(true);
  });
});
