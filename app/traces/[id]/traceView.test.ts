import { describe, expect, it } from "vitest";
import { fact as F } from "@/lib/gate/facts";
import { gateFacts, traceFilterView, traceNavLinks } from "./traceView";

const FIELDS = ["timezone", "severity"];

describe("traceFilterView", () => {
  it("reads no filter from a bare URL", () => {
    expect(traceFilterView({}, FIELDS)).toEqual({
      filter: { field: undefined, after: undefined, before: undefined },
      field: null,
      query: "",
      notices: [null],
      focusField: null,
    });
  });

  it("keeps the run page's field and label, drops its paging, and focuses the field a label filter names", () => {
    const v = traceFilterView({ field: "timezone", label: "ASK", after: "40", before: "9" }, FIELDS);
    expect(v.field).toBe("timezone");
    expect(v.focusField).toBe("timezone");
    expect(new URLSearchParams(v.query).get("field")).toBe("timezone");
    expect(new URLSearchParams(v.query).get("label")).toBe("ASK");
    expect(v.query).not.toMatch(/after|before/);
  });

  it("reads every field when a field's filter names none, and focuses only for a label, reason, human or recorded filter", () => {
    expect(traceFilterView({ label: "INJECT" }, FIELDS)).toMatchObject({ field: "*", focusField: "*" });
    expect(traceFilterView({ human: "reviewed" }, FIELDS)).toMatchObject({ field: "*", focusField: "*" });
    expect(traceFilterView({ flag: "multi_call" }, FIELDS)).toMatchObject({ field: "*", focusField: null });
    expect(traceFilterView({ field: "severity" }, FIELDS)).toMatchObject({
      field: "severity",
      focusField: null,
    });
    // A search or a gate filter is not a field's: the neighbours are the trace's.
    expect(traceFilterView({ q: "tokyo", gate: "block" }, FIELDS)).toMatchObject({ field: null });
    // A probe without probed fields has no field to read.
    expect(traceFilterView({ label: "ASK" }, [])).toMatchObject({ field: null });
  });

  it("says what it does not read: a field the run lacks (then every field), a parameter it does not know", () => {
    const v = traceFilterView({ field: "region", label: "ASK", color: "red", pos: "4" }, FIELDS);
    expect(v.field).toBe("*");
    const said = v.notices.filter((n) => n !== null);
    expect(said).toHaveLength(2);
    expect(said[0]).toMatch(/unknown parameter "color"/);
    expect(said[1]).toMatch(/no field "region".*timezone, severity/);
  });
});

describe("traceNavLinks", () => {
  const base = {
    runName: "tern/nightly-2026-11-25",
    traceId: 42,
    query: "field=timezone&label=ASK",
    neighbours: { prev: 41, next: 43 },
    inFilter: true,
  };

  it("keeps the filter on every link and carries the position through j and k", () => {
    expect(traceNavLinks({ ...base, pos: "3" })).toEqual({
      prevHref: "/traces/41?field=timezone&label=ASK&pos=2",
      nextHref: "/traces/43?field=timezone&label=ASK&pos=4",
      backHref: "/runs/tern%2Fnightly-2026-11-25?field=timezone&label=ASK&at=42&pos=3",
      runLink: "/runs/tern%2Fnightly-2026-11-25?field=timezone&label=ASK",
    });
  });

  it("carries no position before the first, none from a trace outside the filter, none that is not one", () => {
    expect(traceNavLinks({ ...base, pos: "1" }).prevHref).toBe("/traces/41?field=timezone&label=ASK");
    for (const links of [
      traceNavLinks({ ...base, pos: "3", inFilter: false }),
      traceNavLinks({ ...base, pos: "0" }),
      traceNavLinks({ ...base, pos: "3x" }),
      traceNavLinks({ ...base, pos: undefined }),
    ]) {
      expect(links.prevHref).toBe("/traces/41?field=timezone&label=ASK");
      expect(links.nextHref).toBe("/traces/43?field=timezone&label=ASK");
      expect(links.backHref).toBe("/runs/tern%2Fnightly-2026-11-25?field=timezone&label=ASK&at=42");
    }
    // Repeated, the first counts.
    expect(traceNavLinks({ ...base, pos: ["5", "9"] }).nextHref).toMatch(/pos=6$/);
  });

  it("has no neighbour link at the filter's ends, and no query without a filter", () => {
    const links = traceNavLinks({ ...base, query: "", neighbours: { prev: null, next: 7 }, pos: undefined });
    expect(links).toEqual({
      prevHref: null,
      nextHref: "/traces/7",
      backHref: "/runs/tern%2Fnightly-2026-11-25?at=42",
      runLink: "/runs/tern%2Fnightly-2026-11-25",
    });
  });

  it("goes back to a run named . or .. through its query form", () => {
    const links = traceNavLinks({ ...base, runName: "..", query: "", pos: "2" });
    expect(links.backHref).toBe("/runs?name=..&at=42&pos=2");
    expect(links.runLink).toBe("/runs?name=..");
  });
});

describe("gateFacts", () => {
  const probe = { timezone: F.unknown(), user_id: F.known("u_9182", "request") };

  it("lets the trace's world_state override the probe's facts key by key, and says where each came from", () => {
    const trace = { timezone: F.known("Asia/Tokyo", "user") };
    const g = gateFacts(probe, trace, true);
    expect(g.facts).toEqual({
      timezone: F.known("Asia/Tokyo", "user"),
      user_id: F.known("u_9182", "request"),
    });
    expect(g.origin("timezone")).toBe("from the trace's world_state");
    expect(g.origin("user_id")).toBe("from the probe");
  });

  it("calls the compiled probe's facts defaults when the probe declares none, and reads no world_state it lacks", () => {
    const g = gateFacts(probe, undefined, false);
    expect(g.facts).toEqual(probe);
    expect(g.origin("timezone")).toBe("probe default");
    expect(gateFacts(undefined, undefined, false).facts).toEqual({});
  });

  it("takes a world_state key only as the trace's own, never from its prototype", () => {
    const trace = JSON.parse('{"__proto__": {"status": "known", "value": "x", "source": "y"}}');
    const g = gateFacts(probe, trace, true);
    expect(Object.hasOwn(g.facts, "__proto__")).toBe(true);
    expect(g.origin("toString")).toBe("from the probe");
  });
});
