import { createHash } from "node:crypto";
import { copyFileSync, existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "../client";
import { tempDb } from "../testing/ingest";
import { secretPath } from "./serverSecret";
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

describe("the keyed hashes of sessions", () => {
  it("keeps a random secret beside the database, readable by its owner only, made once", () => {
    const path = secretPath(db.path);
    expect(existsSync(path)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const before = readFileSync(path, "utf8");
    createSession(db, "tok-5", null);
    expect(readFileSync(path, "utf8")).toBe(before);
    expect(Buffer.from(before, "base64url").length).toBe(32);
  });

  it("stores no plain hash of the token: a copied database without the secret tests no guess", () => {
    createSession(db, "weak", null);
    const prints = db.sqlite.prepare("SELECT token_fingerprint FROM sessions").pluck().all() as string[];
    const plain = createHash("sha256").update("token\u0000weak").digest("hex");
    for (const p of prints) {
      expect(plain.startsWith(p)).toBe(false);
      expect(p).not.toBe(createHash("sha256").update("weak").digest("hex"));
    }
  });

  it("a copy of the database finds its sessions only with the secret copied beside it", () => {
    const other = tempDb("sessions-secret");
    try {
      const s = createSession(other.db, "tok-6", null);
      expect(findSession(other.db, s.id, "tok-6")).not.toBeNull();
      const bare = join(other.dir, "copy.db");
      const withKey = join(other.dir, "keyed.db");
      other.db.sqlite.exec(`VACUUM INTO '${bare}'`);
      other.db.sqlite.exec(`VACUUM INTO '${withKey}'`);
      copyFileSync(secretPath(other.db.path), secretPath(withKey));
      for (const [path, found] of [
        [bare, false],
        [withKey, true],
      ] as const) {
        const copy = openDb(path);
        try {
          expect(findSession(copy, s.id, "tok-6") !== null).toBe(found);
        } finally {
          copy.sqlite.close();
        }
      }
    } finally {
      other.cleanup();
    }
  });
});
