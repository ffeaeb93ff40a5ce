import { describe, expect, it } from "vitest";
import {
  applyLexiconEdit,
  describeEntryChanges,
  diffEntries,
  LexiconError,
  normalizeEntries,
} from "./lexicon";

describe("lexicon entries", () => {
  it("normalize their terms, keep each once, sorted, and drop entries that say nothing", () => {
    expect(
      normalizeEntries({
        timezone: { terms: ["Region", "region ", "locat*"], rule: "anywhere" },
        empty: { terms: [], rule: "anywhere" },
        rule_only: { terms: [], rule: "question" },
      }),
    ).toEqual({
      rule_only: { terms: [], rule: "question" },
      timezone: { terms: ["locat*", "region"], rule: "anywhere" },
    });
  });

  it("refuse a bad term, naming the field", () => {
    expect(() => normalizeEntries({ timezone: { terms: ["lo*c"], rule: "anywhere" } })).toThrow(/timezone:/);
    expect(() => normalizeEntries({ " timezone": { terms: ["x"], rule: "anywhere" } })).toThrow(LexiconError);
  });

  it("are edited by removals, additions and rules; removing a term the entry lacks is an error", () => {
    const start = { timezone: { terms: ["zone"], rule: "anywhere" as const } };
    const next = applyLexiconEdit(start, {
      add: [
        { field: "timezone", term: "Region" },
        { field: "region", term: "datacenter" },
      ],
      remove: [{ field: "timezone", term: "zone" }],
      rule: [{ field: "timezone", rule: "question" }],
    });
    expect(next).toEqual({
      region: { terms: ["datacenter"], rule: "anywhere" },
      timezone: { terms: ["region"], rule: "question" },
    });
    expect(start.timezone.terms).toEqual(["zone"]);
    expect(() => applyLexiconEdit(start, { remove: [{ field: "timezone", term: "nope" }] })).toThrow(
      /no term "nope"/,
    );
  });

  it("diff by field: terms added and removed, rule changes", () => {
    const changes = diffEntries(
      { timezone: { terms: ["zone"], rule: "anywhere" } },
      { timezone: { terms: ["region"], rule: "question" }, region: { terms: ["dc"], rule: "anywhere" } },
    );
    expect(changes).toEqual([
      { field: "region", added: ["dc"], removed: [] },
      { field: "timezone", added: ["region"], removed: ["zone"], rule: ["anywhere", "question"] },
    ]);
    expect(describeEntryChanges(changes)).toBe(
      'region +"dc"; timezone +"region" −"zone" rule anywhere → question',
    );
    expect(diffEntries({}, {})).toEqual([]);
  });
});
