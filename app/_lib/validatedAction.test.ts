import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FixtureError } from "@/lib/fixtures/errors";
import { refusal, validated } from "./validatedAction";

const Schema = z.object({
  set: z.string().min(1, "name a set"),
  job: z.object({ id: z.number().int().positive() }),
  note: z.string().max(3, "at most 3 characters").optional(),
});

describe("validated", () => {
  it("runs the action on the parsed data when the input is good", async () => {
    const seen: unknown[] = [];
    const r = await validated(Schema, { set: "a", job: { id: 2 }, extra: 1 }, (d) => {
      seen.push(d);
      return { ok: true as const, id: d.job.id };
    });
    expect(r).toEqual({ ok: true, id: 2 });
    expect(seen).toEqual([{ set: "a", job: { id: 2 } }]);
  });

  it("refuses bad input in the one shape, naming every field at fault, and never runs the action", async () => {
    let ran = false;
    const r = await validated(Schema, { set: "", job: { id: -1 }, note: "long" }, () => {
      ran = true;
      return { ok: true as const };
    });
    expect(ran).toBe(false);
    expect(r).toMatchObject({ ok: false });
    const error = (r as { error: string }).error;
    expect(error.split("; ")).toHaveLength(3);
    expect(error).toContain("set: name a set");
    expect(error).toMatch(/^.*job\.id: /);
    expect(error).toContain("note: at most 3 characters");
  });

  it("says a form field by the form's label when it has one", async () => {
    const r = await validated(Schema, { set: "", job: { id: 1 } }, () => ({}), {
      labels: { set: "Set name" },
    });
    expect(r).toEqual({ ok: false, error: "Set name: name a set" });
  });

  it("lets what the action throws pass through (a redirect is a throw)", async () => {
    await expect(
      validated(Schema, { set: "a", job: { id: 1 } }, () => {
        throw new Error("NEXT_REDIRECT");
      }),
    ).rejects.toThrow("NEXT_REDIRECT");
  });
});

describe("refusal", () => {
  it("answers a user's error with its message and hides anything else", () => {
    const logged: unknown[] = [];
    const error = console.error;
    console.error = (...a: unknown[]) => logged.push(a);
    try {
      expect(
        refusal(new FixtureError("read_only", "the seed set is read-only"), "adding", "try again"),
      ).toEqual({
        ok: false,
        error: "the seed set is read-only",
      });
      expect(logged).toEqual([]);
      expect(refusal(new Error("SQLITE_IOERR at /var/db"), "adding", "try again")).toEqual({
        ok: false,
        error: "try again",
      });
      expect(logged).toHaveLength(1);
    } finally {
      console.error = error;
    }
  });
});
