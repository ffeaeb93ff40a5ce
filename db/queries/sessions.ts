import { createHmac, randomBytes } from "node:crypto";
import type { Db } from "../client";
import { writeSync } from "../write";
import { serverSecret } from "./serverSecret";

/** The cookie that holds a session id (random, HttpOnly, SameSite=Strict). */
export const SESSION_COOKIE = "assumeprobe_session";
/** How long a login lasts. */
export const SESSION_DAYS = 7;
/** The longest reviewer name a login keeps. */
export const REVIEWER_MAX = 100;

export interface Session {
  reviewer: string | null;
  expiresAt: string;
}

/** 32 random bytes, base64url: 43 characters. Anything else is no session id. */
const ID_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Keyed hashes (HMAC-SHA-256 with the server's secret, kept beside the database file): a copied
 * database alone allows neither finding a session's id nor testing guesses of a weak token.
 */
const keyed = (db: Db, s: string) => createHmac("sha256", serverSecret(db.path)).update(s).digest("hex");
const hashId = (db: Db, id: string) => keyed(db, `session\u0000${id}`);
/** Tells that the token changed (a session made with another token is no session). */
export const tokenFingerprint = (db: Db, token: string) => keyed(db, `token\u0000${token}`);

/**
 * A new session for a login with `token`; returns the id for the cookie (only its hash is stored).
 * Expired sessions are deleted in the same short write.
 */
export function createSession(
  db: Db,
  token: string,
  reviewer: string | null,
  now = new Date(),
): { id: string; expiresAt: Date } {
  const id = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + SESSION_DAYS * 86_400_000);
  writeSync(db, () => {
    db.sqlite.prepare("DELETE FROM sessions WHERE expires_at <= ?").run(now.toISOString());
    db.sqlite
      .prepare(
        "INSERT INTO sessions (id_hash, token_fingerprint, reviewer, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
      )
      .run(hashId(db, id), tokenFingerprint(db, token), reviewer, now.toISOString(), expiresAt.toISOString());
  });
  return { id, expiresAt };
}

/** The live session a cookie names, made with the current token; null for none, expired or foreign. */
export function findSession(db: Db, id: string | undefined, token: string, now = new Date()): Session | null {
  if (!id || !ID_SHAPE.test(id)) return null;
  const row = db.sqlite
    .prepare(
      "SELECT reviewer, expires_at AS expiresAt FROM sessions WHERE id_hash = ? AND token_fingerprint = ? AND expires_at > ?",
    )
    .get(hashId(db, id), tokenFingerprint(db, token), now.toISOString()) as Session | undefined;
  return row ?? null;
}

/** Ends a session (logout). */
export function deleteSession(db: Db, id: string | undefined): void {
  if (!id || !ID_SHAPE.test(id)) return;
  db.sqlite.prepare("DELETE FROM sessions WHERE id_hash = ?").run(hashId(db, id));
}
