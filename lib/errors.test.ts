import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeInvalid, isUserError, UserError } from "./errors";
import { FixtureError } from "./fixtures/errors";
import { LexiconError } from "./lexicon/lexicon";

describe("UserError", () => {
  it("every domain's refusal is one type with a code", () => {
    const errors = [
      new FixtureError("read_only", "the seed set is read-only"),
      new LexiconError("a term is empty"),
    ];
    expect(errors.every((e) => isUserError(e))).toBe(true);
    expect(errors.map((e) => e.code)).toEqual(["read_only", "lexicon"]);
    expect(errors.map((e) => e.name)).toEqual(["FixtureError", "LexiconError"]);
  });

  it("a crash is not the user's to fix", () => {
    expect(isUserError(new Error("SQLITE_CORRUPT"))).toBe(false);
    expect(isUserError("read_only")).toBe(false);
    expect(isUserError({ code: "read_only", message: "x" })).toBe(false);
  });

  it("tells refusals apart by code when asked", () => {
    const e = new UserError("scope", "no run named x");
    expect(isUserError(e, "scope", "lexicon")).toBe(true);
    expect(isUserError(e, "lexicon")).toBe(false);
  });
});

describe("describeInvalid", () => {
  it("gives an issue with no path its message alone", () => {
    const r = z.string("a string, please").safeParse(3);
    expect(r.success).toBe(false);
    if (!r.success) expect(describeInvalid(r.error)).toBe("a string, please");
  });
});
