import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { displayUrl, REDACTED, scrubText, scrubValue } from "./scrub";

const KEY = "sk-proj-Abc123XYZdef456GHIjkl789MNOpqr";

describe("scrubText", () => {
  it.each([
    ["the key itself", `key ${KEY} here`],
    ["a URL-encoded key", `url ?k=${encodeURIComponent(`${KEY}/+`)}`],
    ["OpenAI's masked echo", `Incorrect API key provided: sk-proj-****************************pqr789MNOpqr`],
    ["a partial echo", `…${KEY.slice(10, 30)}…`],
    ["an Authorization header", `{"authorization":"Bearer ${KEY}"}`],
    ["a bearer token", `sent Bearer ${KEY}`],
    ["a key in a URL's query", `GET http://h/v1?api-key=${KEY}&x=1`],
    ["credentials in a URL", `http://user:${KEY}@127.0.0.1:8080/v1`],
  ])("removes %s", (_what, text) => {
    const out = scrubText(text, [KEY]);
    for (let i = 0; i + 8 <= KEY.length; i++) expect(out).not.toContain(KEY.slice(i, i + 8));
    expect(out).toContain(REDACTED);
  });

  it("leaves other text alone", () => {
    expect(scrubText("503: overloaded, try again", [KEY])).toBe("503: overloaded, try again");
  });

  it("never leaves 8 characters of a random key in any text that embeds it", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789-_"),
          minLength: 12,
          maxLength: 60,
        }),
        fc.string(),
        fc.string(),
        fc.nat(),
        (key, before, after, cut) => {
          const piece = key.slice(cut % (key.length - 8));
          const out = scrubText(`${before}${piece}${after}`, [key]);
          for (let i = 0; i + 8 <= key.length; i++) {
            const w = key.slice(i, i + 8);
            if (!`${before}${after}`.includes(w)) expect(out).not.toContain(w);
          }
        },
      ),
    );
  });
});

describe("scrubValue", () => {
  it("scrubs strings and keys anywhere in a payload, and nothing else", () => {
    const v = { a: [`x ${KEY}`, 1, null, { [KEY]: true, ok: "Bearer is fine here" }], b: false };
    const out = scrubValue(v, [KEY]);
    expect(JSON.stringify(out)).not.toContain(KEY.slice(0, 8));
    expect(out).toEqual({
      a: [`x ${REDACTED}`, 1, null, { [REDACTED]: true, ok: "Bearer is fine here" }],
      b: false,
    });
  });
  it("returns the same value when there is no secret", () => {
    const v = { a: 1 };
    expect(scrubValue(v, [])).toBe(v);
  });
  it("keeps __proto__ a key", () => {
    const v = JSON.parse(`{"__proto__": {"x": "${KEY}"}}`);
    const out = scrubValue(v, [KEY]) as Record<string, unknown>;
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});

describe("displayUrl", () => {
  it("drops user info, query and fragment", () => {
    expect(displayUrl(`http://u:${KEY}@127.0.0.1:8080/v1?key=${KEY}#x`)).toBe("http://127.0.0.1:8080/v1");
  });
  it("scrubs what is not a URL", () => {
    expect(displayUrl(`nonsense Bearer ${KEY}`)).not.toContain(KEY);
  });
});
