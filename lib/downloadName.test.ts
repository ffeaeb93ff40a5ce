import { describe, expect, it } from "vitest";
import { pytestFileName, runExportFileName, setJsonlFileName } from "./downloadName";
import { parseTraceFilter } from "./traceFilter";

describe("download file names", () => {
  it("name a run's export by its filter, so two filters of one run never share a name", () => {
    const run = "tern-7b/nightly-2026-11-29";
    const names = [
      {},
      { field: "*" },
      { label: "ASK" },
      { field: "timezone", label: "ASK" },
      { field: "timezone", label: "INJECT", reason: "bait" },
      { human: "differs" },
      { q: "where" },
      { search: "when" },
      { probe: "book_slot", gate: "block" },
    ].map((q) => runExportFileName(run, parseTraceFilter(q)));
    expect(names[0]).toBe("tern-7b_nightly-2026-11-29.jsonl");
    expect(names[1]).toBe(names[0]);
    expect(names[3]).toBe("tern-7b_nightly-2026-11-29-field-timezone-label-ASK.jsonl");
    expect(new Set(names.slice(1)).size).toBe(names.length - 1);
    for (const n of names) expect(n).toMatch(/^[A-Za-z0-9_.-]+\.jsonl$/);
  });

  it("stay short and plain for any search", () => {
    const n = runExportFileName("r", parseTraceFilter({ q: `"ü" ${"x".repeat(199)}` }));
    expect(n.length).toBeLessThanOrEqual(186);
    expect(n).toMatch(/^[A-Za-z0-9_.-]+\.jsonl$/);
  });

  it("name each pytest variant of a set apart, each collected by pytest", () => {
    const set = "region-asks.v2";
    const names = [
      pytestFileName(set, { module: "assumeprobe", reference: false }),
      pytestFileName(set, { module: "assumeprobe", reference: true }),
      pytestFileName(set, { module: "my_probes", reference: false }),
      pytestFileName(set, { module: "my_probes", reference: true }),
    ];
    expect(names[0]).toBe("test_region_asks_v2.py");
    expect(names[1]).toBe("test_region_asks_v2_reference.py");
    expect(new Set(names).size).toBe(4);
    for (const n of names) expect(n).toMatch(/^test_[A-Za-z0-9_]+\.py$/);
    expect(setJsonlFileName(set)).toBe("region-asks.v2.jsonl");
  });
});
