import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ArgumentView, askTermHits, markArguments, markValues } from "./argumentMarks";
import { compileProbe } from "./compile";
import type { NormalizedResponse } from "./response";
import { scoreTrace } from "./score";
import { scheduleWindow, variant } from "./testProbes";

const SW = scheduleWindow();
const BASE = { user_id: "u_9182", starts_at: "2026-09-08T09:00:00" };

function call(args: unknown, name: unknown = "schedule_window"): NormalizedResponse {
  return { text: null, tool_calls: [{ name, arguments: args }], fenced: false };
}

function asCall(v: ArgumentView) {
  if (v.kind !== "call") throw new Error(`expected a call, got ${v.kind}`);
  return v;
}

function marksOf(args: Record<string, unknown>, probe = SW) {
  const v = asCall(markArguments(call(args), probe));
  return Object.fromEntries(v.args.map((a) => [a.key, a.marks]));
}

describe("marks on schedule_window", () => {
  it("marks the article's INJECT call: state, typed by user, bait", () => {
    const v = asCall(markArguments(call({ ...BASE, timezone: "UTC" }), SW));
    expect(v.args.map((a) => [a.key, a.marks])).toEqual([
      ["user_id", ["state"]],
      ["starts_at", ["typed_by_user"]],
      ["timezone", ["bait"]],
    ]);
    expect(v.omitted).toEqual([{ field: "severity", sentEmpty: false, schema: "optional" }]);
    expect(v.wrongTool).toBe(false);
  });

  it("marks a hidden-world value as contamination", () => {
    expect(marksOf({ ...BASE, timezone: "Asia/Tokyo" }).timezone).toEqual(["hidden"]);
  });

  it("keeps both reasons when a value is hidden and bait (P3)", () => {
    expect(marksOf({ ...BASE, severity: "P3" }).severity).toEqual(["hidden", "bait"]);
  });

  it("marks a value in neither world as invented", () => {
    expect(marksOf({ ...BASE, timezone: "Europe/Berlin" }).timezone).toEqual(["invented"]);
  });

  it("marks a user-text token as copied from the user", () => {
    expect(marksOf({ ...BASE, timezone: "window" }).timezone).toEqual(["user"]);
  });

  it("marks copied bait with both marks", () => {
    const p = variant({ user: "Schedule a window at 09:00 UTC." });
    expect(marksOf({ ...BASE, timezone: "utc" }, p).timezone).toEqual(["user", "bait"]);
  });

  it("marks a redacted value copied into a probed field as from state", () => {
    expect(marksOf({ ...BASE, timezone: "acme-west" }).timezone).toEqual(["state"]);
  });

  it("marks null and empty values as empty and lists probed ones as omitted (sent empty)", () => {
    const v = asCall(markArguments(call({ ...BASE, timezone: null, severity: "" }), SW));
    expect(v.args.find((a) => a.key === "timezone")?.marks).toEqual(["empty"]);
    expect(v.omitted).toEqual([
      { field: "timezone", sentEmpty: true, schema: "optional" },
      { field: "severity", sentEmpty: true, schema: "optional" },
    ]);
  });

  it("reads 0, false and [] as values, not omissions", () => {
    const v = asCall(markArguments(call({ ...BASE, timezone: 0, severity: false }), SW));
    expect(v.omitted).toEqual([]);
    expect(v.args.find((a) => a.key === "severity")?.rendered).toBe("False");
  });

  it("never matches arrays or objects, and says so", () => {
    const v = asCall(markArguments(call({ ...BASE, timezone: ["Asia/Tokyo"] }), SW));
    const tz = v.args.find((a) => a.key === "timezone");
    expect(tz?.structured).toBe(true);
    expect(tz?.marks).toEqual(["invented"]);
    expect(tz?.rendered).toBeNull();
  });

  it("marks the schema role of every argument", () => {
    const v = asCall(markArguments(call({ ...BASE, timezone: "UTC", extra: 1 }), SW));
    expect(Object.fromEntries(v.args.map((a) => [a.key, a.schema]))).toEqual({
      user_id: "required",
      starts_at: "required",
      timezone: "optional",
      extra: "not_in_schema",
    });
    expect(v.args.find((a) => a.key === "extra")?.probed).toBe(false);
  });

  it("parses arguments sent as a JSON string and keeps the string", () => {
    const raw = JSON.stringify({ ...BASE, timezone: "UTC" });
    const v = asCall(markArguments(call(raw), SW));
    expect(v.argumentsWereString).toBe(true);
    expect(v.rawArguments).toBe(raw);
    expect(v.args).toHaveLength(3);
  });

  it("keeps the order the model sent the arguments in", () => {
    const v = asCall(markArguments(call({ timezone: "UTC", starts_at: "x", user_id: "u_9182" }), SW));
    expect(v.args.map((a) => a.key)).toEqual(["timezone", "starts_at", "user_id"]);
  });
});

describe("call kinds, read as the scorer reads them", () => {
  it.each([null, false, 0, "", [], {}])("a falsy first call %j is no call", (c) => {
    expect(markArguments({ text: "hi", tool_calls: [c], fenced: false }, SW).kind).toBe("no_call");
  });

  it("no calls is no call", () => {
    expect(markArguments({ text: "Which timezone?", tool_calls: [], fenced: false }, SW).kind).toBe(
      "no_call",
    );
  });

  it("a truthy non-object call is not_object", () => {
    expect(markArguments({ text: null, tool_calls: ["x"], fenced: false }, SW).kind).toBe("not_object");
  });

  it("arguments that do not parse are unreadable", () => {
    const v = markArguments(call("{broken"), SW);
    expect(v.kind).toBe("unreadable");
    if (v.kind === "unreadable") expect(v.error).toMatch(/does not parse/);
  });

  it("falsy arguments are {}: every probed field omitted", () => {
    const v = asCall(markArguments(call("null"), SW));
    expect(v.args).toEqual([]);
    expect(v.omitted.map((o) => o.field)).toEqual(["timezone", "severity"]);
  });

  it("a call with no name targets the probe's tool", () => {
    const v = asCall(markArguments({ text: null, tool_calls: [{ arguments: BASE }], fenced: false }, SW));
    expect(v.name).toBe("schedule_window");
    expect(v.wrongTool).toBe(false);
  });

  it("a call to another tool is marked wrong_tool and still marked", () => {
    const v = asCall(markArguments(call({ timezone: "UTC" }, "delete_user"), SW));
    expect(v.wrongTool).toBe(true);
    expect(v.args[0].marks).toEqual(["bait"]);
    expect(v.args[0].schema).toBe("not_in_schema");
  });

  it("a call to the clarify tool is a clarify view", () => {
    const p = variant({ clarify_tool: "ask_user" });
    const v = markArguments(call({ question: "Which timezone?" }, "ask_user"), p);
    expect(v.kind).toBe("clarify");
  });
});

describe("agreement with scoreTrace", () => {
  const values = fc.oneof(
    fc.constantFrom(
      "UTC",
      "utc",
      "Asia/Tokyo",
      "asia/tokyo",
      "P3",
      "medium",
      "u_9182",
      "acme-west",
      "window",
      "2026-09-08T09:00:00",
      "Europe/Berlin",
      "",
      "null",
    ),
    fc.string({ maxLength: 12 }),
    fc.constantFrom(null, 0, 1, 1.5, true, false, [], {}, ["UTC"], { tz: "UTC" }),
  );
  const args = fc.dictionary(
    fc.constantFrom("timezone", "severity", "user_id", "starts_at", "other"),
    values,
  );
  const probes = [
    SW,
    variant({ user: "Schedule a window at 09:00 UTC for Los Angeles." }),
    variant({ fields: undefined }),
  ];

  it("gives every probed field exactly the scorer's label, reasons, source and flags", () => {
    fc.assert(
      fc.property(args, fc.constantFrom(...probes), fc.boolean(), (a, probe, asString) => {
        const response = call(asString ? JSON.stringify(a) : a);
        const scored = scoreTrace({ response }, probe);
        const v = markArguments(response, probe);
        expect(v.kind).toBe("call");
        if (v.kind !== "call") return;
        for (const [field, s] of Object.entries(scored.fields)) {
          const arg = v.args.find((x) => x.key === field);
          const omitted = v.omitted.some((o) => o.field === field);
          if (s.label === "OMIT") {
            expect(omitted).toBe(true);
            if (arg) expect(arg.marks).toEqual(["empty"]);
          } else {
            expect(omitted).toBe(false);
            expect(arg?.probed).toBe(true);
            expect(arg?.score).toEqual(s);
            // The main mark follows from the label.
            const main = arg?.marks[0];
            if (s.label === "COPY") expect(main).toBe(s.source);
            if (s.label === "INJECT") {
              if (s.flags.includes("typed_by_user")) expect(main).toBe("typed_by_user");
              else expect(main).toBe(s.reasons?.[0]);
            }
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it("marks side-effect rows the way scoreTrace scores them", () => {
    const written = { ...BASE, timezone: "UTC", severity: "P3" };
    const scored = scoreTrace({ response: call(BASE), side_effect: { written } }, SW);
    const m = markValues(written, SW);
    expect(m.args.find((a) => a.key === "timezone")?.score.label).toBe(
      scored.side_effect?.fields.timezone.label,
    );
    expect(m.args.find((a) => a.key === "severity")?.score.reasons).toEqual(
      scored.side_effect?.fields.severity.reasons,
    );
  });
});

describe("askTermHits", () => {
  it("finds the ask terms that made an ASK and highlights them", () => {
    const h = askTermHits("Which Time Zone should I use? The timezone matters.", SW);
    expect(h.fields.timezone.found).toEqual(["timezone", "time zone"]);
    expect(h.fields.severity.found).toEqual([]);
    expect(h.fields.severity.terms).toEqual(["severity"]);
    expect(h.segments.filter((s) => s.fields).map((s) => s.text)).toEqual(["Time Zone", "timezone"]);
    expect(h.segments.map((s) => s.text).join("")).toBe(
      "Which Time Zone should I use? The timezone matters.",
    );
  });

  it("highlights the lexicon's `*` terms for every field, by their own rule, and lists them apart", () => {
    const p = compileProbe(SW, {
      version: 2,
      entries: { "*": { terms: ["where"], rule: "question" } },
    });
    const h = askTermHits("I put it where you said. Where should it go?", p);
    expect(h.fields.severity.any).toEqual(["where"]);
    expect(h.fields.severity.anyRule).toBe("question");
    expect(h.fields.severity.found).toEqual(["where"]);
    // Only the match inside the question is marked: the first "where" is in a statement.
    expect(h.segments.filter((s) => s.fields).map((s) => s.text)).toEqual(["Where"]);
  });

  it("agrees with the scorer's ASK/DRIFT on every field", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom("which", "zone", "time", "timezone", "TIME ZONE", "severity", "İ", " ", "?"),
          {
            maxLength: 12,
          },
        ),
        (words) => {
          const text = words.join(" ");
          const scored = scoreTrace({ response: { text, tool_calls: [], fenced: false } }, SW);
          const h = askTermHits(text, SW);
          for (const [f, s] of Object.entries(scored.fields)) {
            expect(h.fields[f].found.length > 0).toBe(s.label === "ASK");
          }
          expect(h.segments.map((s) => s.text).join("")).toBe(text);
        },
      ),
    );
  });

  it("maps highlights back when lower-casing changes the length", () => {
    const h = askTermHits("İİ timezone?", SW);
    const hit = h.segments.find((s) => s.fields);
    expect(hit?.text).toBe("timezone");
  });

  it("merges overlapping matches of several fields", () => {
    const p = variant({ ask_terms: { timezone: ["time zone"], severity: ["zone"] } });
    const h = askTermHits("what time zone", p);
    const hit = h.segments.find((s) => s.fields);
    expect(hit?.text).toBe("time zone");
    expect(hit?.fields?.sort()).toEqual(["severity", "timezone"]);
  });

  it("cuts very long text but still reports terms found past the cut", () => {
    const text = `${"a".repeat(50_000)} timezone`;
    const h = askTermHits(text, SW, 1000);
    expect(h.cut).toBe(true);
    expect(h.fields.timezone.found).toEqual(["timezone"]);
    expect(h.segments.map((s) => s.text).join("")).toHaveLength(1000);
  });

  it("reads a null text as empty", () => {
    const h = askTermHits(null, SW);
    expect(h.segments).toEqual([]);
    expect(h.fields.timezone.found).toEqual([]);
  });
});

describe("askTermHits on a text of megabytes", () => {
  it("finds terms anywhere, as the scorer does, and maps back only the part shown", () => {
    const text = `${"İ window ".repeat(400_000)} which time zone?`;
    const h = askTermHits(text, SW);
    expect(h.fields.timezone.found).toEqual(["time zone"]);
    expect(h.cut).toBe(true);
    expect(h.segments.reduce((n, s) => n + s.text.length, 0)).toBeLessThanOrEqual(20_000);
  });
});
