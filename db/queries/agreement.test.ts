import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupProbes } from "../../lib/probeGroups";
import { agreementByGroup } from "../../lib/review/agreementView";
import { humanLabel } from "../../lib/review/humanLabel";
import { tempDb } from "../testing/ingest";
import { applyReviewSteps, loadQueueRuns, reviewSteps } from "../testing/queue";
import { type AgreementCount, agreementCounts, probesWithRuns } from "./agreement";

const { db, cleanup } = tempDb("agreement");
afterAll(cleanup);

let ids = new Map<string, number>();
beforeAll(async () => {
  ids = await loadQueueRuns(db);
});

const key = (c: Omit<AgreementCount, "runId" | "model" | "n">) =>
  `${c.run}|${c.probeId}|${c.field}|${c.ours}|${c.human}`;

/** The counts worked out from every trace and every review. */
function slowCounts(): Map<string, number> {
  const reviews = new Map<string, { label: string | null }>();
  for (const r of db.sqlite.prepare("SELECT trace_id AS t, field, label FROM reviews ORDER BY id").all() as {
    t: number;
    field: string;
    label: string | null;
  }[])
    reviews.set(`${r.t}|${r.field}`, { label: r.label });
  const out = new Map<string, number>();
  for (const t of db.sqlite
    .prepare(
      "SELECT t.id, r.name AS run, t.probe_id AS probeId, t.labels, t.human FROM traces t JOIN runs r ON r.id = t.run_id",
    )
    .all() as { id: number; run: string; probeId: string; labels: string; human: string | null }[]) {
    const imported = t.human ? (JSON.parse(t.human) as Record<string, string>) : {};
    for (const [field, ours] of Object.entries(JSON.parse(t.labels) as Record<string, string>)) {
      const h = humanLabel(reviews.get(`${t.id}|${field}`), imported[field]);
      if (!h) continue;
      const k = key({ run: t.run, probeId: t.probeId, field, ours, human: h.label });
      out.set(k, (out.get(k) ?? 0) + 1);
    }
  }
  return out;
}

const keptCounts = () => new Map(agreementCounts(db).map((c) => [key(c), c.n]));

describe("agreement counts", () => {
  it("count imported labels from ingest, per run, probe, field and pair", () => {
    expect(keptCounts()).toEqual(slowCounts());
    const oldRun = agreementCounts(db, { run: "q-old" });
    expect(
      oldRun.find((c) => c.probeId === "schedule_window" && c.field === "timezone" && c.human === "ASK"),
    ).toMatchObject({
      ours: "INJECT",
      n: 1,
      model: "tern",
    });
    expect(agreementCounts(db, { model: "plover" }).every((c) => c.run === "q-other")).toBe(true);
    expect(agreementCounts(db, { run: "no-such-run" })).toEqual([]);
  });

  it("stay equal to a recount after any sequence of reviews, clears and undos", () => {
    fc.assert(
      fc.property(reviewSteps([...ids.values()], 15), (steps) => {
        applyReviewSteps(db, steps);
        expect(keptCounts()).toEqual(slowCounts());
      }),
      { numRuns: 30 },
    );
  });

  it("groups probes as the overview's probe filter does", () => {
    const groups = groupProbes(probesWithRuns(db));
    expect(groups.map((g) => g.key)).toEqual(["builtin", "file:window_b.json", "file:window_c.json"]);
    const byGroup = agreementByGroup(agreementCounts(db), groups);
    const total = [...slowCounts().values()].reduce((a, b) => a + b, 0);
    expect(byGroup.reduce((a, g) => a + g.summary.total, 0)).toBe(total);
  });
});
