import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestText, tempDb } from "../testing/ingest";
import { writeSync } from "../write";
import { addTraceFields } from "./fixtures";
import { writeReviews } from "./reviews";

import { suggestFor } from "./suggest";
import { suggestInputs } from "./suggestInputs";

const t = tempDb("suggest");
afterAll(() => t.cleanup());

/** A schedule_window reply with no call and an imported human label for its timezone. */
const line = (run: string, id: string, text: string, timezone: string) =>
  JSON.stringify({
    id,
    run,
    probe: "schedule_window",
    response: { text, tool_calls: [] },
    human: { timezone },
  });

const ids = (run: string) =>
  t.db.sqlite
    .prepare("SELECT t.id FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = ? ORDER BY t.id")
    .pluck()
    .all(run) as number[];

beforeAll(async () => {
  // Run A: three questions that never name the timezone, labelled ASK.
  await ingestText(
    t.db,
    "a.jsonl",
    [
      line("run-a", "a1", "Where is the user located?", "ASK"),
      line("run-a", "a2", "Happy to help. Where are you located?", "ASK"),
      line("run-a", "a3", "Could you say where they are located?", "ASK"),
    ].join("\n"),
  );
  // Run B: "located" in statements, labelled DRIFT (and a question A never saw).
  await ingestText(
    t.db,
    "b.jsonl",
    [
      line("run-b", "b1", "The user is located in Tokyo. Scheduled.", "DRIFT"),
      line("run-b", "b2", "Your office is located downtown, booked.", "DRIFT"),
      line("run-b", "b3", "Which office are you in?", "INJECT"),
    ].join("\n"),
  );
});

describe("suggestions counted only inside their scope", () => {
  it("reads only the scope's labelled fields", () => {
    const a = suggestInputs(t.db, { runs: ["run-a"], sets: [] });
    expect(a.map((i) => i.trace?.id)).toEqual(ids("run-a"));
    expect(a.every((i) => i.trace?.run === "run-a" && i.source === "imported")).toBe(true);
    expect(suggestInputs(t.db, { runs: [], sets: [] }).map((i) => i.trace?.id)).toEqual([
      ...ids("run-a"),
      ...ids("run-b"),
    ]);
  });

  it("ranks by run A alone when scoped to it: the labels of run B never count", () => {
    const a = suggestFor(t.db, { scope: { runs: ["run-a"], sets: [] }, whatIf: false });
    expect(a.counted).toMatchObject({ fields: 3, missedAsks: 3, wrongAsks: 0 });
    expect(a.suggestions[0]).toMatchObject({ change: { kind: "add", field: "timezone", term: "located" } });
    expect([a.suggestions[0].fixes, a.suggestions[0].breaks]).toEqual([3, 0]);
    const inA = new Set(ids("run-a").map((id) => `trace:${id}:timezone`));
    for (const s of a.suggestions) for (const k of [...s.fixed, ...s.broken]) expect(inA.has(k)).toBe(true);
    // Over every run, "located" breaks B's two statements: it is no longer first.
    const all = suggestFor(t.db, { scope: { runs: [], sets: [] }, whatIf: false });
    expect(all.counted.fields).toBe(6);
    const located = all.suggestions.find((s) => "term" in s.change && s.change.term === "located");
    expect(located === undefined || located.breaks === 2).toBe(true);
    expect(all.suggestions[0].change).not.toMatchObject({ term: "located" });
    // Scoped to B, nothing was missed there: no addition at all.
    expect(suggestFor(t.db, { scope: { runs: ["run-b"], sets: [] }, whatIf: false }).suggestions).toEqual([]);
  });

  it("takes a set's fixtures only when the set is in scope, and the current review over the imported label", async () => {
    const [b1] = ids("run-b");
    addTraceFields(t.db, "curated", "ann", [{ traceId: b1, field: "timezone", expected: "DRIFT" }]);
    const aOnly = suggestFor(t.db, { scope: { runs: ["run-a"], sets: [] }, whatIf: false });
    expect(aOnly.counted.fields).toBe(3);
    const withSet = suggestFor(t.db, { scope: { runs: ["run-a"], sets: ["curated"] }, whatIf: false });
    expect(withSet.counted.fields).toBe(4);
    const located = withSet.suggestions.find((s) => "term" in s.change && s.change.term === "located");
    expect(located?.breaks ?? 1).toBe(1);
    // The fixture's source trace in scope too: the case counts once, as the trace.
    expect(
      suggestFor(t.db, { scope: { runs: ["run-b"], sets: ["curated"] }, whatIf: false }).counted.fields,
    ).toBe(3);
    // A review replaces the imported label: b3 reviewed ASK is a miss of run B now.
    const b3 = ids("run-b")[2];
    const r = writeSync(t.db, () =>
      writeReviews(t.db, {
        traceId: b3,
        reviewer: "ann",
        items: [{ field: "timezone", label: "ASK", base: null }],
      }),
    );
    expect(r.ok).toBe(true);
    // One miss: listed only with the two-fix, two-trace threshold lowered.
    expect(suggestFor(t.db, { scope: { runs: ["run-b"], sets: [] }, whatIf: false }).suggestions).toEqual([]);
    const b = suggestFor(t.db, {
      scope: { runs: ["run-b"], sets: [] },
      whatIf: false,
      minFixes: 1,
      minTraces: 1,
    });
    expect(b.needs).toEqual({ fixes: 1, traces: 1 });
    expect(b.counted.missedAsks).toBe(1);
    const inputs = suggestInputs(t.db, { runs: ["run-b"], sets: [] });
    expect(inputs.find((i) => i.trace?.id === b3)).toMatchObject({ human: "ASK", source: "review" });
    expect(b.suggestions[0]).toMatchObject({ fixes: 1, breaks: 0 });
  });

  it("names an unknown run, set or probe", () => {
    expect(() => suggestFor(t.db, { scope: { runs: ["nope"], sets: [] } })).toThrow("unknown run: nope");
    expect(() => suggestFor(t.db, { scope: { runs: [], sets: ["nope"] } })).toThrow(
      "unknown fixture set: nope",
    );
    expect(() => suggestFor(t.db, { scope: { runs: [], sets: [], probe: "nope" } })).toThrow(
      "unknown probe: nope",
    );
  });
});
