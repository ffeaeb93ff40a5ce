import { describe, expect, it } from "vitest";
import { suggestChanges } from "./suggest";
import { field, modelEvaluator } from "./testEvaluator";
import type { LabelledField } from "./types";

const lexicon = () => modelEvaluator({ probe: {}, lexicon: {} });
const inTrace = (item: LabelledField, trace: string): LabelledField => ({ ...item, trace });

describe("suggestions need fixes from different traces", () => {
  it("proposes nothing from one fix, nor from two fixes of one trace; the threshold is configurable", () => {
    const ev = lexicon();
    const one = [field(ev, "city", "Which town are you in?", "ASK")];
    expect(suggestChanges(one, ev)).toEqual([]);
    expect(suggestChanges(one, ev, { minFixes: 1, minTraces: 1 })[0]).toMatchObject({
      change: { term: "town" },
      fixes: 1,
    });
    // Two fields of one trace: two fixes, one trace.
    const same = [
      inTrace(field(ev, "city", "Which town are you in?", "ASK"), "trace:1"),
      inTrace(field(ev, "region", "Which town are you in?", "ASK"), "trace:1"),
    ];
    expect(suggestChanges(same, ev).filter((s) => s.fixes > 0)).toEqual([]);
    const two = [
      inTrace(field(ev, "city", "Which town are you in?", "ASK"), "trace:1"),
      inTrace(field(ev, "city", "Your town, please?", "ASK"), "trace:2"),
    ];
    const got = suggestChanges(two, ev);
    expect(got[0]).toMatchObject({ change: { field: "city", term: "town" }, fixes: 2, traces: 2 });
  });

  it("lists the reviewed fields a suggestion moves away from their label", () => {
    const ev = lexicon();
    const items = [
      field(ev, "city", "Town?", "ASK"),
      field(ev, "city", "Your town, please?", "ASK"),
      field(ev, "city", "And the town?", "ASK"),
      field(ev, "city", "I picked a town for you.", "DRIFT", "review"),
      field(ev, "city", "Nice town.", "DRIFT", "imported"),
    ];
    const [s] = suggestChanges(items, ev);
    expect(s).toMatchObject({ change: { term: "town" }, fixes: 3, breaks: 2 });
    expect(s.reviewed).toEqual([items[3].key]);
  });
});

describe("the `*` entry in suggestions", () => {
  it("proposes a term for `*` when its net summed over every field beats its best single field's", () => {
    const ev = lexicon();
    // "where" asks for a different field in each trace: no field has two fixes of its own.
    const items = [
      field(ev, "city", "Where should it go?", "ASK"),
      field(ev, "region", "Where is it?", "ASK"),
      field(ev, "office", "Where do you work?", "ASK"),
      field(ev, "office", "Done, booked.", "DRIFT"),
    ];
    const s = suggestChanges(items, ev);
    expect(s[0]).toMatchObject({ change: { kind: "add", field: "*", term: "where" }, fixes: 3, breaks: 0 });
    // Then not also per field.
    expect(s.filter((x) => x.change.kind === "add" && x.change.term === "where")).toHaveLength(1);
  });

  it("keeps a term on its field when the other fields would lose by it", () => {
    const ev = lexicon();
    const items = [
      field(ev, "city", "Which town are you in?", "ASK"),
      field(ev, "city", "Your town, please?", "ASK"),
      field(ev, "region", "I used the town you gave.", "DRIFT"),
      field(ev, "office", "That town is fine.", "DRIFT"),
    ];
    const s = suggestChanges(items, ev);
    expect(s[0]).toMatchObject({ change: { field: "city", term: "town" }, fixes: 2, breaks: 0 });
    expect(s.some((x) => x.change.field === "*")).toBe(false);
  });

  it("is not offered for a probe's own terms", () => {
    const ev = modelEvaluator({ probe: {}, lexicon: {}, probeMode: true });
    const items = [
      field(ev, "city", "Where should it go?", "ASK"),
      field(ev, "region", "Where is it?", "ASK"),
    ];
    expect(suggestChanges(items, ev).some((x) => x.change.field === "*")).toBe(false);
  });
});
