import { describe, expect, it } from "vitest";
import { type FieldFacts, fieldMatches, selectedFields, withoutHuman } from "./fieldFilter";

const facts = (over: Partial<FieldFacts> & { field: string }): FieldFacts => ({
  ours: "DRIFT",
  reasons: [],
  flags: [],
  recorded: undefined,
  imported: undefined,
  review: undefined,
  ...over,
});

describe("fieldMatches", () => {
  it("checks every per-field part of the filter, and ignores the trace-level ones", () => {
    const f = facts({
      field: "timezone",
      ours: "INJECT",
      reasons: ["bait"],
      flags: ["typed_by_user"],
      recorded: "inject",
    });
    expect(
      fieldMatches({ label: "INJECT", reason: "bait", flag: "typed_by_user", recorded: "agree" }, f),
    ).toBe(true);
    expect(fieldMatches({ label: "ASK" }, f)).toBe(false);
    expect(fieldMatches({ reason: "hidden" }, f)).toBe(false);
    expect(fieldMatches({ flag: "copied_bait" }, f)).toBe(false);
    expect(fieldMatches({ flag: "wrong_tool" }, f)).toBe(true); // a trace flag: the query's part
    expect(fieldMatches({ recorded: "disagree" }, f)).toBe(false);
    expect(fieldMatches({ recorded: "agree" }, facts({ field: "x" }))).toBe(false);
  });

  it("reads the human part from the field's review as given, else its imported label", () => {
    const reviewed = facts({ field: "timezone", review: { label: "ASK" }, imported: "DRIFT" });
    expect(fieldMatches({ human: "differs" }, reviewed)).toBe(true);
    expect(fieldMatches({ human: "reviewed" }, reviewed)).toBe(true);
    expect(fieldMatches({ human: "ASK" }, reviewed)).toBe(true);
    const cleared = facts({ field: "timezone", review: { label: null }, imported: "DRIFT" });
    expect(fieldMatches({ human: "agree" }, cleared)).toBe(true);
    // A clear falls back to the imported label, which is a human label: the field is not unreviewed.
    expect(fieldMatches({ human: "unreviewed" }, cleared)).toBe(false);
    expect(fieldMatches({ human: "reviewed" }, cleared)).toBe(true);
    const bare = facts({ field: "timezone", review: { label: null } });
    expect(fieldMatches({ human: "unreviewed" }, bare)).toBe(true);
  });
});

describe("selectedFields", () => {
  const both = [
    facts({ field: "timezone", ours: "DRIFT", review: { label: "ASK" } }),
    facts({ field: "severity", ours: "DRIFT" }),
  ];
  it("takes the named field only, or each field that meets the filter itself on any field", () => {
    expect(selectedFields({ label: "DRIFT" }, "severity", both).map((x) => x.field)).toEqual(["severity"]);
    expect(selectedFields({ label: "DRIFT" }, "*", both).map((x) => x.field)).toEqual([
      "timezone",
      "severity",
    ]);
    expect(selectedFields({ human: "reviewed" }, "*", both).map((x) => x.field)).toEqual(["timezone"]);
  });
  it("reads unreviewed on any field as no field of the trace reviewed", () => {
    expect(selectedFields({ human: "unreviewed" }, "*", both)).toEqual([]);
    expect(selectedFields({ human: "unreviewed" }, "severity", both).map((x) => x.field)).toEqual([
      "severity",
    ]);
    expect(withoutHuman({ human: "ASK", label: "DRIFT" })).toEqual({ label: "DRIFT" });
  });
});
