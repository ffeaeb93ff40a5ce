import { afterAll, describe, expect, it } from "vitest";
import { tempDb } from "../../lib/ingest/testIngest";
import { createSession, deleteSession, findSession, SESSION_DAYS } from "./sessions";

const { db, cleanup } = tempDb("sessions");
afterAll(cleanup);

describe("sessions", () => {
  it("finds a live session by its cookie id, with the reviewer given at login", () => {
    const s = createSession(db, "tok-1", "Ana");
    expect(s.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(findSession(db, s.id, "tok-1")).toMatchObject({ reviewer: "Ana" });
    expect(s.expiresAt.getTime() - Date.now()).toBeGreaterThan((SESSION_DAYS - 0.01) * 86_400_000);
  });

  it("stores only a hash of the id, never the token", () => {
    const s = createSession(db, "tok-secret", null);
    const dump = JSON.stringify(db.sqlite.prepare("SELECT * FROM sessions").all());
    expect(dump).not.toContain(s.id);
    expect(dump).not.toContain("tok-secret");
  });

  it("ends with its expiry, with a changed token, and at logout", () => {
    const now = new Date("2030-01-01T00:00:00Z");
    const s = createSession(db, "tok-2", null, now);
    expect(findSession(db, s.id, "tok-2", new Date(now.getTime() + 1000))).not.toBeNull();
    expect(findSession(db, s.id, "tok-2", new Date(now.getTime() + SESSION_DAYS * 86_400_000))).toBeNull();
    expect(findSession(db, s.id, "tok-3", new Date(now.getTime() + 1000))).toBeNull();
    deleteSession(db, s.id);
    expect(findSession(db, s.id, "tok-2", new Date(now.getTime() + 1000))).toBeNull();
  });

  it("finds nothing for a missing, malformed or unknown id", () => {
    for (const id of [undefined, "", "x", "a".repeat(43), "'; DROP TABLE sessions; --"])
      expect(findSession(db, id, "tok-1")).toBeNull();
  });

  it("deletes expired sessions when a new one is made", () => {
    const old = createSession(db, "tok-4", null, new Date("2000-01-01T00:00:00Z"));
    createSession(db, "tok-4", null);
    const left = db.sqlite.prepare("SELECT count(*) FROM sessions WHERE expires_at < '2001'").pluck().get();
    expect(left).toBe(0);
    expect(findSession(db, old.id, "tok-4", new Date("2000-01-02T00:00:00Z"))).toBeNull();
  });
});
