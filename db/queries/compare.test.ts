import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestText, tempDb, traceLine } from "../testing/ingest";
import { changedTraces, labelTransitions } from "./compare";

const { db, cleanup } = tempDb("compare");
afterAll(cleanup);

const N = 130;
let a = 0;
let b = 0;
beforeAll(async () => {
  // Before: every trace invents UTC. After: traces 0-119 ask instead (changed), 120-129 still invent.
  const before = Array.from({ length: N }, (_, i) => traceLine({ id: `c${i}` }, { timezone: "UTC" }));
  const after = Array.from({ length: N }, (_, i) =>
    i < 120
      ? traceLine({ id: `c${i}`, response: { text: "Which timezone are you in?", tool_calls: [] } })
      : traceLine({ id: `c${i}` }, { timezone: "UTC" }),
  );
  await ingestText(db, "before.jsonl", `${before.join("\n")}\n`, { run: "before" });
  await ingestText(db, "after.jsonl", `${after.join("\n")}\n`, { run: "after" });
  const id = (n: string) => db.sqlite.prepare("SELECT id FROM runs WHERE name = ?").pluck().get(n) as number;
  a = id("before");
  b = id("after");
});

describe("changedTraces", () => {
  it("pages the changed traces beyond the first 50, forwards and back, with their total", () => {
    const seen: string[] = [];
    let page = changedTraces(db, a, b);
    expect(page.pairs).toBe(N);
    expect(page.total).toBe(120);
    expect(page.prevBefore).toBeNull();
    const pages = [page];
    while (page.nextAfter !== null) {
      seen.push(...page.changed.map((c) => c.extId));
      page = changedTraces(db, a, b, { after: page.nextAfter });
      pages.push(page);
    }
    seen.push(...page.changed.map((c) => c.extId));
    expect(pages.map((p) => p.changed.length)).toEqual([50, 50, 20]);
    expect(pages.map((p) => p.start)).toEqual([0, 50, 100]);
    expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => `c${i}`));
    // Back from the last page lands on the second.
    const back = changedTraces(db, a, b, { before: pages[2].prevBefore ?? 0 });
    expect(back.changed.map((c) => c.extId)).toEqual(pages[1].changed.map((c) => c.extId));
    expect(back.prevBefore).not.toBeNull();
    expect(back.start).toBe(50);
    expect(back.nextAfter).toBe(pages[1].changed.at(-1)?.aId);
  });

  it("lists one matrix cell's pairs, changed or not, matching the matrix's count", () => {
    const m = labelTransitions(db, a, b);
    expect(m.timezone.INJECT.ASK).toBe(120);
    expect(m.timezone.INJECT.INJECT).toBe(10);
    const moved = changedTraces(db, a, b, { cell: { field: "timezone", from: "INJECT", to: "ASK" } });
    expect(moved.total).toBe(120);
    const kept = changedTraces(db, a, b, { cell: { field: "timezone", from: "INJECT", to: "INJECT" } });
    expect(kept.total).toBe(10);
    expect(kept.changed.map((c) => c.extId)).toEqual(Array.from({ length: 10 }, (_, i) => `c${120 + i}`));
    const none = changedTraces(db, a, b, { cell: { field: "timezone", from: "ASK", to: "INJECT" } });
    expect(none.total).toBe(0);
    expect(none.changed).toEqual([]);
  });
});
