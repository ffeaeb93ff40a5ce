import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DRAFT_LEXICON_VERSION, draftLexicon, scoreWithDraft } from "../lexicon/draft";
import { EMPTY_LEXICON, type Lexicon, type LexiconEntry } from "../lexicon/lexicon";
import { compileProbe } from "./compile";
import type { NormalizedResponse } from "./response";
import { scoreTrace } from "./score";
import { scheduleWindow, variant } from "./testProbes";

const SW = scheduleWindow();
const lexicon = (entries: Record<string, LexiconEntry>, version = 1): Lexicon => ({ version, entries });
const text = (t: string): NormalizedResponse => ({ text: t, tool_calls: [], fenced: false });
const label = (p: ReturnType<typeof compileProbe>, t: string, field = "timezone") =>
  scoreTrace({ response: text(t) }, p).fields[field].label;

describe("the scorer with a shared lexicon", () => {
  it("adds the lexicon's terms for a field name to the probe's own, as whole words", () => {
    const p = compileProbe(SW, lexicon({ timezone: { terms: ["region"], rule: "anywhere" } }));
    expect(label(p, "Which region is u_9182 in?")).toBe("ASK");
    expect(label(p, "Which subregion is it?")).toBe("DRIFT");
    // The probe's own terms still match as substrings.
    expect(label(p, "Which timezones apply?")).toBe("ASK");
    // Only the field of that name: severity is not asked by "region".
    expect(label(p, "Which region is u_9182 in?", "severity")).toBe("DRIFT");
  });

  it("matches prefixes and words of several terms", () => {
    const p = compileProbe(
      SW,
      lexicon({ timezone: { terms: ["locat*", "where are you"], rule: "anywhere" } }),
    );
    expect(label(p, "Where is the user located?")).toBe("ASK");
    expect(label(p, "Where   are\nyou based")).toBe("ASK");
    expect(label(p, "Relocated already.")).toBe("DRIFT");
  });

  it("under the question rule counts the probe's and the lexicon's terms only inside a question", () => {
    const p = compileProbe(SW, lexicon({ timezone: { terms: ["region"], rule: "question" } }));
    expect(label(p, "I'll use the default timezone. Done.")).toBe("DRIFT");
    expect(label(p, "I scheduled it. Which timezone is right?")).toBe("ASK");
    expect(label(p, "I scheduled it. What region is the user in")).toBe("ASK");
    expect(label(p, "I used the default region.")).toBe("DRIFT");
    expect(label(p, "Please confirm the region.")).toBe("ASK");
    // A rule with no terms of its own applies to the probe's terms.
    const ruleOnly = compileProbe(SW, lexicon({ timezone: { terms: [], rule: "question" } }));
    expect(label(ruleOnly, "Using the default timezone.")).toBe("DRIFT");
    expect(label(ruleOnly, "Which timezone?")).toBe("ASK");
  });

  it("keeps the field-name fallback when the probe lists no terms, whatever the lexicon holds", () => {
    const bare = variant({ ask_terms: {} });
    const p = compileProbe(bare, lexicon({ severity: { terms: ["priority"], rule: "anywhere" } }));
    expect(label(p, "What severity should it have?", "severity")).toBe("ASK");
    expect(label(p, "What priority should it have?", "severity")).toBe("ASK");
    expect(label(p, "What timezone?", "timezone")).toBe("ASK");
    expect(label(p, "What time zone?", "timezone")).toBe("DRIFT");
  });

  it("names fields in a clarify call's arguments by lexicon terms too, whatever the rule", () => {
    const probe = variant({ clarify_tool: "ask_user" });
    const p = compileProbe(probe, lexicon({ timezone: { terms: ["region"], rule: "question" } }));
    const call = (args: unknown): NormalizedResponse => ({
      text: null,
      tool_calls: [{ name: "ask_user", arguments: args }],
      fenced: false,
    });
    const s = scoreTrace({ response: call({ question: "the user's region" }) }, p);
    expect(s.fields.timezone.label).toBe("ASK");
    expect(s.fields.severity.label).toBe("DRIFT");
  });

  it("raises ask_and_call for a call whose text holds a lexicon term", () => {
    const p = compileProbe(SW, lexicon({ timezone: { terms: ["region"], rule: "anywhere" } }));
    const r: NormalizedResponse = {
      text: "Using the user's region.",
      tool_calls: [{ name: "schedule_window", arguments: { timezone: "UTC" } }],
      fenced: false,
    };
    expect(scoreTrace({ response: r }, p).flags).toContain("ask_and_call");
    expect(scoreTrace({ response: r }, SW).flags).not.toContain("ask_and_call");
  });

  it("with the empty lexicon scores exactly as the probe alone", () => {
    const words = fc.constantFrom(
      "timezone",
      "time zone",
      "region",
      "Which",
      "?",
      ".",
      " ",
      "severity",
      "zone",
    );
    fc.assert(
      fc.property(fc.array(words, { maxLength: 12 }), (parts) => {
        const r = text(parts.join(" "));
        expect(scoreTrace({ response: r }, compileProbe(SW, EMPTY_LEXICON))).toEqual(
          scoreTrace({ response: r }, SW),
        );
      }),
    );
  });

  it("caches one compiled probe per lexicon and definition", () => {
    const l = lexicon({ timezone: { terms: ["region"], rule: "anywhere" } });
    expect(compileProbe(SW, l)).toBe(compileProbe(SW, l));
    expect(compileProbe(SW, l)).not.toBe(compileProbe(SW));
    expect(compileProbe(SW, l).lexicon).toBe(l);
  });
});

describe("scoring under a draft", () => {
  it("uses a draft configuration and lexicon through the one scorer, saving nothing", () => {
    const r = text("Which region are you in?");
    expect(scoreWithDraft(r, SW).fields.timezone.label).toBe("DRIFT");
    expect(
      scoreWithDraft(r, SW, { lexicon: draftLexicon({ timezone: { terms: ["Region"], rule: "anywhere" } }) })
        .fields.timezone.label,
    ).toBe("ASK");
    expect(
      scoreWithDraft(r, SW, {
        configuration: { ask_terms: { timezone: ["region"] }, bait: [], clarify_tool: null },
      }).fields.timezone.label,
    ).toBe("ASK");
    expect(draftLexicon({}).version).toBe(DRAFT_LEXICON_VERSION);
  });
});
