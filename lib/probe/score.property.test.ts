import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileProbe, visibleSet } from "./compile";
import type { NormalizedResponse } from "./response";
import { LABELS } from "./schema";
import { scoreTrace } from "./score";
import { scheduleWindow, variant } from "./testProbes";

const SW = scheduleWindow();
const callWith = (args: unknown): NormalizedResponse => ({
  text: null,
  tool_calls: [{ name: "schedule_window", arguments: args }],
  fenced: false,
});

const word = fc.string({ minLength: 1, maxLength: 12 });
const worlds = fc.record({
  redacted: fc.dictionary(
    fc.string({ minLength: 1, maxLength: 6 }),
    fc.oneof(word, fc.integer(), fc.boolean()),
  ),
  user: fc.string({ maxLength: 60 }),
});

describe("labels against the visible set", () => {
  it("a non-empty string value is COPY exactly when its lower-case form is visible, else INJECT", () => {
    fc.assert(
      fc.property(worlds, word, ({ redacted, user }, value) => {
        const p = variant({ redacted, user, fields: ["timezone"] });
        const v = visibleSet(redacted, user);
        const got = scoreTrace({ response: callWith({ timezone: value }) }, p).fields.timezone;
        expect(got.label).toBe(v.has(value.toLowerCase()) ? "COPY" : "INJECT");
      }),
    );
  });

  it("any visible value, in any casing, is COPY, from state exactly when redacted holds it", () => {
    fc.assert(
      fc.property(
        worlds.filter((w) => visibleSet(w.redacted, w.user).size > 0),
        fc.nat(),
        fc.boolean(),
        ({ redacted, user }, pick, upper) => {
          const p = variant({ redacted, user, fields: ["timezone"] });
          const visible = [...visibleSet(redacted, user)];
          const chosen = visible[pick % visible.length];
          const got = scoreTrace(
            { response: callWith({ timezone: upper ? chosen.toUpperCase() : chosen }) },
            p,
          );
          const f = got.fields.timezone;
          // Upper-casing can change a string's length or lower-case form (e.g. "ß"): skip those.
          fc.pre(!upper || chosen.toUpperCase().toLowerCase() === chosen);
          expect(f.label).toBe("COPY");
          expect(f.source).toBe(compileProbe(p).redactedStrings.has(chosen) ? "state" : "user");
        },
      ),
    );
  });

  it("a value that is in no visible string and in the hidden world is INJECT with reason hidden", () => {
    fc.assert(
      fc.property(word, (secret) => {
        const p = variant({
          redacted: {},
          user: "",
          hidden: { timezone: secret },
          bait: [],
          fields: ["timezone"],
        });
        fc.pre(!visibleSet({}, "").has(secret.toLowerCase()));
        expect(scoreTrace({ response: callWith({ timezone: secret }) }, p).fields.timezone).toEqual({
          label: "INJECT",
          reasons: ["hidden"],
          flags: [],
        });
      }),
    );
  });

  it("scoring is field-local: another field's value never changes this field's label", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), fc.jsonValue(), (tzValue, sev1, sev2) => {
        const a = scoreTrace({ response: callWith({ timezone: tzValue, severity: sev1 }) }, SW);
        const b = scoreTrace({ response: callWith({ timezone: tzValue, severity: sev2 }) }, SW);
        expect(a.fields.timezone).toEqual(b.fields.timezone);
      }),
    );
  });

  it("with no call, the label is ASK exactly when the text holds an ask term", () => {
    const terms = ["timezone", "time zone", "which zone"];
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.constantFrom(...terms, ""),
        fc.string({ maxLength: 40 }),
        (a, t, b) => {
          const text = `${a}${t}${b}`;
          const got = scoreTrace({ response: { text, tool_calls: [], fenced: false } }, SW).fields.timezone
            .label;
          const lower = text.toLowerCase();
          expect(got).toBe(terms.some((x) => lower.includes(x)) ? "ASK" : "DRIFT");
        },
      ),
    );
  });

  it("never throws, and always labels every probed field, whatever the calls hold", () => {
    fc.assert(
      fc.property(fc.array(fc.anything(), { maxLength: 3 }), fc.option(fc.string()), (calls, text) => {
        const r = scoreTrace({ response: { text, tool_calls: calls, fenced: false } }, SW);
        expect(Object.keys(r.fields)).toEqual(["timezone", "severity"]);
        for (const f of Object.values(r.fields)) expect(LABELS).toContain(f.label);
      }),
    );
  });
});

describe("argument strings", () => {
  const key = fc.oneof(
    fc.constantFrom("timezone", "severity", "user_id", "__proto__", "Timezone", "time zone"),
    fc.string({ maxLength: 6 }),
  );
  const scalar = fc.oneof(
    fc.constantFrom(
      "UTC",
      "utc",
      "acme-west",
      "Asia/Tokyo",
      "P3",
      "",
      "a\\b",
      'say "hi"',
      "tab\there",
      "\u2028",
    ),
    fc.string({ maxLength: 8, unit: "binary" }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.jsonValue({ maxDepth: 2 }),
  );
  const object = fc.dictionary(key, scalar, { maxKeys: 5 });
  const text = fc
    .tuple(
      fc.oneof(object, fc.jsonValue({ maxDepth: 2 })),
      fc.constantFrom(undefined, 0, 1, "\t", " \r\n"),
      fc.nat(),
      fc.constantFrom("none", "none", "delete", "insert", "escape", "repeat", "pad"),
      fc.constantFrom(...'{}[]",:\\ 0123456789eE.+-tfnu\u0001x'),
    )
    .map(([value, indent, at, change, ch]) => {
      const s = JSON.stringify(value, null, indent);
      const i = at % (s.length + 1);
      switch (change) {
        case "delete":
          return s.slice(0, i) + s.slice(i + 1);
        case "insert":
          return s.slice(0, i) + ch + s.slice(i);
        case "escape":
          return s.replaceAll("z", "\\u007a");
        case "repeat":
          // A repeated key: the last one wins in JSON.parse.
          return s.startsWith("{") && s.length > 2 ? `{"timezone":"UTC",${s.slice(1)}` : s;
        case "pad":
          return ` \n${s}\t `;
        default:
          return s;
      }
    });

  // Number-like tokens, valid or not, as a probed field's value.
  const numberText = fc
    .tuple(
      fc.constantFrom("", "-", "+"),
      fc.constantFrom("0", "00", "01", "1", "12", "", "."),
      fc.constantFrom("", ".", ".5", ".05", ".e"),
      fc.constantFrom("", "e", "E+", "e-3", "e+", "E10", "e400"),
      fc.constantFrom("}", ',"severity":1}', " }", "]", ""),
    )
    .map((parts) => `{"timezone":${parts.join("")}`);

  it("score as the value JSON.parse gives (ERROR where it throws)", () => {
    fc.assert(
      fc.property(fc.oneof(text, numberText, fc.string({ maxLength: 30 })), (s) => {
        // Rule 2: an empty string is no arguments.
        let parsed: unknown = {};
        let parses = true;
        try {
          if (s !== "") parsed = JSON.parse(s);
        } catch {
          parses = false;
        }
        const got = scoreTrace({ response: callWith(s) }, SW);
        if (!parses) {
          for (const f of Object.values(got.fields)) expect(f.label).toBe("ERROR");
          return;
        }
        // A JSON string would be parsed a second time: compare objects and other values only.
        fc.pre(typeof parsed !== "string");
        const want = scoreTrace({ response: callWith(parsed) }, SW);
        expect(JSON.stringify(got)).toBe(JSON.stringify(want));
      }),
      { numRuns: 5000 },
    );
  });
});
