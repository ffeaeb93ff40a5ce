import { describe, expect, it } from "vitest";
import { EMPTY_LEXICON, type Lexicon } from "../lexicon/lexicon";
import { scheduleWindow, variant } from "../probe/testProbes";
import { tuneFields } from "./tuneFields";

describe("tuneFields: a probe's fields as its tune page edits them", () => {
  it("gives each probed field its own terms, or the name it falls back to, and the lexicon's terms and rule", () => {
    const lexicon: Lexicon = {
      version: 3,
      entries: {
        "*": { terms: ["which one"], rule: "question" },
        severity: { terms: ["how urgent", "prio*"], rule: "question" },
      },
    };
    const probe = variant({ ask_terms: { timezone: ["TimeZone", "which zone"] } });
    expect(tuneFields(probe, lexicon)).toEqual([
      {
        field: "timezone",
        declared: ["timezone", "which zone"],
        fallback: [],
        lexicon: [],
        rule: "anywhere",
        any: ["which one"],
        anyRule: "question",
      },
      {
        field: "severity",
        declared: [],
        fallback: ["severity"],
        lexicon: ["how urgent", "prio*"],
        rule: "question",
        any: ["which one"],
        anyRule: "question",
      },
    ]);
  });

  it("counts what the scorer counts: a field named with _ falls back to its name both ways", () => {
    const probe = scheduleWindow();
    const fields = tuneFields({ ...probe, fields: ["start_date"], ask_terms: {} }, EMPTY_LEXICON);
    expect(fields).toEqual([
      {
        field: "start_date",
        declared: [],
        fallback: ["start_date", "start date"],
        lexicon: [],
        rule: "anywhere",
        any: [],
        anyRule: "anywhere",
      },
    ]);
  });
});
