import { afterAll, describe, expect, it, vi } from "vitest";
import { type Db, openDb } from "@/db/client";
import { currentLexiconVersion, saveLexicon } from "@/db/queries/lexicon";
import { getProbe } from "@/db/queries/probes";
import { tempDb } from "@/db/testing/ingest";

// The tuning pages' server actions on a real database: one refusal shape for bad input, the seed
// break refused until confirmed, someone else's save said with the version to look at, and an
// unexpected failure answered with "try again" (logged, never thrown at the page or shown raw).

const { db, dir, cleanup } = tempDb("tuning-actions");
// A database that is closed: every read throws a plain TypeError, as a failing disk would.
const closed = openDb(`${dir}/closed.db`);
closed.sqlite.close();
let current: Db = db;
afterAll(cleanup);

vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
vi.mock("@/app/_review/reviewer", () => ({
  currentReviewer: async () => ({ name: "tess", source: "browser" }),
}));
vi.mock("@/db/client", async (real) => ({
  ...(await real<typeof import("@/db/client")>()),
  getDb: () => current,
}));

const { rescoreStatusAction, saveDraftAction, startRescoreAction, suggestAction, whatIfAction } =
  await import("./actions");

const sw = () => {
  const p = getProbe(db, "schedule_window");
  if (!p) throw new Error("no schedule_window");
  return p;
};
/** schedule_window without its `timezone` term: the seed's "Which timezone should I use?" is no longer ASK. */
const breakingDraft = () => {
  const { probe } = sw();
  return {
    kind: "probe" as const,
    probe: "schedule_window",
    configuration: {
      ask_terms: { ...probe.ask_terms, timezone: ["time zone", "which zone"] },
      bait: probe.bait,
      clarify_tool: null,
    },
  };
};

describe("the tuning actions", () => {
  it("refuse bad input in one shape, naming where it is wrong, and do nothing", async () => {
    const cases: [Promise<unknown>, string][] = [
      [whatIfAction({ kind: "nope" }), "kind"],
      [saveDraftAction({ draft: breakingDraft(), base: -1 }), "base: "],
      [startRescoreAction({ scope: { kind: "run", run: "" } }), "scope.run: "],
      [rescoreStatusAction({ ids: ["x"] }), "ids.0: "],
      [suggestAction({ probe: null, runs: [], sets: [], top: 0 }), "top: "],
    ];
    for (const [reply, where] of cases) {
      const r = (await reply) as { ok: boolean; error: string };
      expect(r.ok).toBe(false);
      expect(r.error).toContain(where);
    }
    expect(sw().version).toBe(1);
  });

  it("refuse a draft that breaks the seed set until the person confirms it, then save it", async () => {
    const base = sw().version;
    const refused = await saveDraftAction({ draft: breakingDraft(), base });
    expect(refused).toMatchObject({ ok: false, guard: { seedBroken: 1 } });
    expect(sw().version).toBe(base);
    const saved = await saveDraftAction({ draft: breakingDraft(), base, allowBreak: true });
    expect(saved).toMatchObject({ ok: true, version: base + 1, created: true });
    expect(sw().probe.ask_terms.timezone).toEqual(["time zone", "which zone"]);
    expect(sw().configurationEdited).toBe(true);
  });

  it("say that someone saved the lexicon meanwhile, with the version to look at", async () => {
    const base = currentLexiconVersion(db);
    saveLexicon(db, { region: { terms: ["which region"], rule: "anywhere" } }, { by: "other", base });
    const r = await saveDraftAction({
      draft: { kind: "lexicon", entries: { region: { terms: ["where"], rule: "anywhere" } } },
      base,
    });
    expect(r).toMatchObject({ ok: false, current: base + 1 });
    expect((r as { error: string }).error).toContain("the lexicon changed since this draft was made");
  });

  it("answer an unexpected failure with try again, logged and never shown raw", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    current = closed;
    try {
      const r = await saveDraftAction({ draft: breakingDraft(), base: 2, allowBreak: true });
      expect(r).toEqual({ ok: false, error: "the draft could not be saved: try again" });
      expect(logged).toHaveBeenCalledWith("saving a draft failed", expect.any(TypeError));
    } finally {
      current = db;
      logged.mockRestore();
    }
  });
});
