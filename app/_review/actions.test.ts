import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDb } from "@/db/client";
import { currentReviews } from "@/db/queries/reviews";
import { tempDb } from "@/db/testing/ingest";
import { loadReviewRun } from "@/db/testing/reviews";
import { setWriteWaitMs } from "@/db/write";

const { db, dir, cleanup } = tempDb("review-action");
afterAll(cleanup);

const who = vi.hoisted(() => ({ name: "queue" as string | null }));
const redraws = vi.hoisted(() => ({ n: 0 }));
vi.mock("next/cache", () => ({ refresh: () => redraws.n++ }));
vi.mock("@/app/_review/reviewer", () => ({
  currentReviewer: async () => ({ name: who.name, source: "browser" }),
  REVIEWER_COOKIE: "assumeprobe-reviewer",
}));
vi.mock("@/db/client", async (real) => ({
  ...(await real<typeof import("@/db/client")>()),
  getDb: () => db,
}));

const { submitReviewAction } = await import("./actions");

let ids = new Map<string, number>();
beforeAll(async () => {
  ids = await loadReviewRun(db);
});
const reviewCount = () => db.sqlite.prepare("SELECT count(*) FROM reviews").pluck().get() as number;
const base = (t: number, field: string) => currentReviews(db, t).get(field)?.id ?? null;

describe("submitReviewAction, the one review action of the trace page and the queue", () => {
  it("waits for another process's write lock without holding the server's thread, then writes", async () => {
    const other = openDb(`${dir}/test.db`);
    try {
      other.sqlite.prepare("BEGIN IMMEDIATE").run();
      const t = ids.get("ask") as number;
      const pending = submitReviewAction({
        traceId: t,
        items: [{ field: "severity", label: "ASK", base: base(t, "severity") }],
      });
      // Other requests are answered meanwhile: timers on the same thread keep running.
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      await new Promise((r) => setTimeout(r, 80));
      clearInterval(timer);
      expect(ticks).toBeGreaterThan(3);
      expect(currentReviews(db, t).get("severity")?.reviewer).not.toBe("queue");
      other.sqlite.prepare("COMMIT").run();
      const r = await pending;
      expect(r).toMatchObject({
        ok: true,
        reviews: [{ field: "severity", label: "ASK", reviewer: "queue" }],
      });
      expect(currentReviews(db, t).get("severity")?.reviewer).toBe("queue");
    } finally {
      if (other.sqlite.inTransaction) other.sqlite.prepare("ROLLBACK").run();
      other.sqlite.close();
    }
  });

  it("gives up when the lock stays taken past its wait: says try again, writes nothing, restores the busy timeout", async () => {
    const other = openDb(`${dir}/test.db`);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    setWriteWaitMs(30);
    try {
      other.sqlite.prepare("BEGIN IMMEDIATE").run();
      const t = ids.get("ask") as number;
      const n = reviewCount();
      const r = await submitReviewAction({
        traceId: t,
        items: [{ field: "severity", label: "OMIT", base: base(t, "severity") }],
      });
      expect(r).toEqual({ ok: false, error: "the review could not be saved: try again" });
      expect(errors).toHaveBeenCalledWith("review failed", expect.objectContaining({ name: "Error" }));
      other.sqlite.prepare("ROLLBACK").run();
      expect(reviewCount()).toBe(n);
      expect(db.sqlite.pragma("busy_timeout", { simple: true })).toBe(10000);
    } finally {
      setWriteWaitMs();
      errors.mockRestore();
      if (other.sqlite.inTransaction) other.sqlite.prepare("ROLLBACK").run();
      other.sqlite.close();
    }
  });

  it("answers a conflict with the review that landed meanwhile, and writes nothing", async () => {
    const t = ids.get("drift") as number;
    const seen = base(t, "timezone");
    expect(
      await submitReviewAction({ traceId: t, items: [{ field: "timezone", label: "ASK", base: seen }] }),
    ).toMatchObject({ ok: true });
    const n = reviewCount();
    const r = await submitReviewAction({
      traceId: t,
      items: [{ field: "timezone", label: "OMIT", base: seen }],
    });
    expect(r).toMatchObject({
      ok: false,
      conflicts: [{ field: "timezone", current: { label: "ASK", reviewer: "queue", trace_id: t } }],
    });
    expect(reviewCount()).toBe(n);
  });

  it("refuses bad input naming the field at fault, a submission it cannot write by what was wrong, and a missing name", async () => {
    const t = ids.get("omit") as number;
    const n = reviewCount();
    const bad = await submitReviewAction({
      traceId: t,
      items: [{ field: "timezone", label: "MAYBE" as never, base: null }],
    });
    expect(bad).toMatchObject({ ok: false, error: expect.stringMatching(/^items\.0\.label: /) });
    expect(await submitReviewAction({ traceId: t, items: [] })).toEqual({
      ok: false,
      error: "items: nothing to review",
    });
    expect(
      await submitReviewAction({ traceId: t, items: [{ field: "zone", label: "ASK", base: null }] }),
    ).toEqual({ ok: false, error: `trace ${t} has no probed field "zone" (its fields: timezone, severity)` });
    who.name = null;
    try {
      expect(
        await submitReviewAction({ traceId: t, items: [{ field: "timezone", label: "ASK", base: null }] }),
      ).toEqual({ ok: false, error: "say who is reviewing first", needsReviewer: true });
    } finally {
      who.name = "queue";
    }
    expect(reviewCount()).toBe(n);
  });

  it("draws the page anew in the same response only when asked (the queue's next item)", async () => {
    const t = ids.get("tokyo") as number;
    const before = redraws.n;
    await submitReviewAction({
      traceId: t,
      items: [{ field: "timezone", label: "ASK", base: base(t, "timezone") }],
    });
    expect(redraws.n).toBe(before);
    await submitReviewAction({
      traceId: t,
      items: [{ field: "timezone", label: "OMIT", base: base(t, "timezone") }],
      refresh: true,
    });
    expect(redraws.n).toBe(before + 1);
  });
});
