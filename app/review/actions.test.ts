import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDb } from "@/db/client";
import { currentReviews } from "@/db/queries/reviews";
import { loadReviewRun } from "@/db/queries/reviewTestKit";
import { tempDb } from "@/lib/ingest/testIngest";

const { db, dir, cleanup } = tempDb("queue-action");
afterAll(cleanup);

vi.mock("next/cache", () => ({ refresh: () => {} }));
vi.mock("@/app/_review/reviewer", () => ({
  currentReviewer: async () => ({ name: "queue", source: "cookie" }),
  REVIEWER_COOKIE: "assumeprobe-reviewer",
}));
vi.mock("@/db/client", async (real) => ({
  ...(await real<typeof import("@/db/client")>()),
  getDb: () => db,
}));

const { reviewFromQueue } = await import("./actions");

let ids = new Map<string, number>();
beforeAll(async () => {
  ids = await loadReviewRun(db);
});

describe("reviewFromQueue", () => {
  it("waits for another process's write lock without holding the server's thread, then writes", async () => {
    const other = openDb(`${dir}/test.db`);
    try {
      other.sqlite.prepare("BEGIN IMMEDIATE").run();
      const t = ids.get("ask") as number;
      const base = currentReviews(db, t).get("severity")?.id ?? null;
      const pending = reviewFromQueue({ traceId: t, field: "severity", label: "ASK", base, refresh: false });
      // Other requests are answered meanwhile: timers on the same thread keep running.
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      await new Promise((r) => setTimeout(r, 80));
      clearInterval(timer);
      expect(ticks).toBeGreaterThan(3);
      expect(currentReviews(db, t).get("severity")?.reviewer).not.toBe("queue");
      other.sqlite.prepare("COMMIT").run();
      const r = await pending;
      expect(r).toMatchObject({ ok: true, review: { field: "severity", label: "ASK", reviewer: "queue" } });
      expect(currentReviews(db, t).get("severity")?.reviewer).toBe("queue");
    } finally {
      if (other.sqlite.inTransaction) other.sqlite.prepare("ROLLBACK").run();
      other.sqlite.close();
    }
  });
});
