import { describe, expect, it } from "vitest";
import { ANY_FIELD } from "./ingest/tags";
import {
  checkTraceFilter,
  filterField,
  parseTraceFilter,
  unknownFieldNotice,
  unknownParams,
} from "./traceFilter";

describe("the filter's field", () => {
  const fields = ["timezone", "user_id", "resource_id"];
  it("defaults to every field, however few the run probes", () => {
    expect(filterField(parseTraceFilter({}), fields)).toBe(ANY_FIELD);
    expect(filterField(parseTraceFilter({ label: "ASK" }), ["timezone"])).toBe(ANY_FIELD);
  });
  it.each(["any", "ANY", "*"])("reads field=%s as every field", (v) => {
    expect(filterField(parseTraceFilter({ field: v }), fields)).toBe(ANY_FIELD);
    expect(unknownFieldNotice(parseTraceFilter({ field: v }), fields)).toBeNull();
  });
  it("keeps a field the run probes, and says so of one it does not", () => {
    expect(filterField(parseTraceFilter({ field: "user_id" }), fields)).toBe("user_id");
    const f = parseTraceFilter({ field: "timezon" });
    expect(filterField(f, fields)).toBe(ANY_FIELD);
    expect(unknownFieldNotice(f, fields)).toMatch(/no field "timezon" \(its fields: timezone, user_id/);
  });
});

describe("the search's two names", () => {
  it.each<Record<string, string>>([{ q: "where" }, { search: "where" }])(
    "reads %j as the search",
    (params) => {
      expect(parseTraceFilter(params).q).toBe("where");
      expect(parseTraceFilter(new URLSearchParams(params)).q).toBe("where");
      expect(unknownParams(params)).toEqual([]);
    },
  );
  it("refuses both at once, as a parameter given twice", () => {
    const r = checkTraceFilter(new URLSearchParams("q=a&search=b"));
    expect(r).toEqual({ ok: false, error: "q is given 2 times" });
  });
});

describe("unknown parameters", () => {
  it("names each with the accepted ones", () => {
    const notices = unknownParams(new URLSearchParams("serch=where&label=ASK&at=3"), ["at"]);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(
      /^unknown parameter "serch" \(the filter takes field, label, .*q \(or search\).*, at\)$/,
    );
  });
  it("are an error where only the filter is read (the exports), not where a page reads more", () => {
    const p = new URLSearchParams("serch=where");
    expect(checkTraceFilter(p).ok).toBe(true);
    const strict = checkTraceFilter(p, { extra: [] });
    expect(strict.ok).toBe(false);
    expect(!strict.ok && strict.error).toMatch(/unknown parameter "serch"/);
    expect(checkTraceFilter(new URLSearchParams("search=where&label=ASK"), { extra: [] }).ok).toBe(true);
  });
});
