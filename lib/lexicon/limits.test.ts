import { describe, expect, it } from "vitest";
import { applyLexiconEdit, LexiconError, normalizeEntries } from "./lexicon";
import { askTermsProblem, overLimitNotice, TERM_LIMITS, termListsProblem, termTextProblem } from "./limits";

const many = (n: number, prefix = "term") => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe("term limits", () => {
  it("refuse a term holding NUL or another control character, naming it", () => {
    expect(termTextProblem("a\u0000b")).toMatch(/control character \(U\+0000\)/);
    expect(termTextProblem("zone\u0007")).toMatch(/U\+0007/);
    expect(termTextProblem("x\u0085")).toMatch(/U\+0085/);
    expect(termTextProblem("\ud800x")).toMatch(/U\+D800/);
    expect(termTextProblem("which zone")).toBeNull();
    expect(termTextProblem("時區")).toBeNull();
  });

  it("refuse a term empty after trimming, and one past the length limit", () => {
    expect(termTextProblem("   ")).toMatch(/empty/);
    expect(termTextProblem("x".repeat(TERM_LIMITS.termLength))).toBeNull();
    expect(termTextProblem("x".repeat(TERM_LIMITS.termLength + 1))).toMatch(
      /101 characters long; a term holds at most 100/,
    );
  });

  it("name the field and the limit for terms per field, fields and terms in all", () => {
    expect(termListsProblem({ timezone: many(501) }, "the lexicon")).toBe(
      "timezone: 501 terms; a field holds at most 500 (1 too many)",
    );
    const wide = Object.fromEntries(many(201, "f").map((f) => [f, ["x"]]));
    expect(termListsProblem(wide, "the lexicon")).toBe("the lexicon has terms for 201 fields; at most 200");
    const deep = Object.fromEntries(many(11, "f").map((f) => [f, many(500)]));
    expect(termListsProblem(deep, "the lexicon")).toBe("the lexicon holds 5,500 terms; at most 5,000 in all");
    expect(termListsProblem({ a: many(500) }, "the lexicon")).toBeNull();
  });

  it("apply to a probe's own terms too, which are substrings and take any other text", () => {
    expect(askTermsProblem({ timezone: ["a\u0000"] }, "probe p")).toMatch(/^timezone: .*U\+0000/);
    expect(askTermsProblem({ timezone: many(600) }, "probe p")).toMatch(/^timezone: 600 terms/);
    expect(askTermsProblem({ timezone: ["?!", " time zone "] }, "probe p")).toBeNull();
  });

  it("are applied by every lexicon save: normalizeEntries and applyLexiconEdit refuse past them", () => {
    expect(() => normalizeEntries({ timezone: { terms: many(501), rule: "anywhere" } })).toThrow(
      /timezone: 501 terms; a field holds at most 500/,
    );
    const add = many(10_000).map((term) => ({ field: "timezone", term }));
    expect(() => applyLexiconEdit({}, { add })).toThrow(LexiconError);
    expect(() => applyLexiconEdit({}, { add: [{ field: "timezone", term: "zone\u0000" }] })).toThrow(
      /U\+0000/,
    );
    // A draft that is weighed, never saved, may pass them (a suggestion against a full lexicon).
    expect(applyLexiconEdit({}, { add }, { limits: false }).timezone.terms).toHaveLength(10_000);
  });

  it("let an edit clear a field's whole entry, so a lexicon past them can be brought back", () => {
    const over = {
      timezone: { terms: many(2_000), rule: "anywhere" as const },
      region: { terms: ["dc"], rule: "anywhere" as const },
    };
    expect(overLimitNotice({ timezone: over.timezone.terms }, "The saved lexicon")).toMatch(
      /^The saved lexicon is past the limits \(timezone: 2,000 terms/,
    );
    expect(() => applyLexiconEdit(over, { remove: [{ field: "timezone", term: "term1" }] })).toThrow(
      /1,999 terms/,
    );
    expect(applyLexiconEdit(over, { clear: ["timezone"] })).toEqual({
      region: { terms: ["dc"], rule: "anywhere" },
    });
    expect(() => applyLexiconEdit(over, { clear: ["nope"] })).toThrow(/no entry to clear/);
  });
});

describe("the tuning pages' server actions", () => {
  it("refuse a draft past the limits with the limit's message, whatever the form sent", async () => {
    const { SaveDraftSchema } = await import("../tuning/contract");
    const lexicon = SaveDraftSchema.safeParse({
      draft: { kind: "lexicon", entries: { timezone: { terms: many(501), rule: "anywhere" } } },
      base: 0,
    });
    expect(lexicon.error?.issues.map((i) => i.message)).toEqual([
      "timezone: 501 terms; a field holds at most 500 (1 too many)",
    ]);
    const nul = SaveDraftSchema.safeParse({
      draft: { kind: "lexicon", entries: { timezone: { terms: ["zone\u0000"], rule: "anywhere" } } },
      base: 0,
    });
    expect(nul.error?.issues[0].message).toMatch(/U\+0000/);
    const probe = SaveDraftSchema.safeParse({
      draft: {
        kind: "probe",
        probe: "schedule_window",
        configuration: { ask_terms: { timezone: many(600) }, bait: [], clarify_tool: null },
      },
      base: 1,
    });
    expect(probe.error?.issues[0].message).toMatch(/timezone: 600 terms; a field holds at most 500/);
    const ok = SaveDraftSchema.safeParse({
      draft: { kind: "lexicon", entries: { timezone: { terms: many(500), rule: "anywhere" } } },
      base: 0,
    });
    expect(ok.success).toBe(true);
  });
});
