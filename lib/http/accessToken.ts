import { createHash, timingSafeEqual } from "node:crypto";

/** The access token a server requires (ASSUMEPROBE_TOKEN), or null when it requires none. */
export function accessToken(): string | null {
  return process.env.ASSUMEPROBE_TOKEN || null;
}

const digest = (s: string) => createHash("sha256").update(s).digest();

/** Whether `given` is the token, in time that does not depend on where they differ (or their lengths). */
export function tokenMatches(given: string, token: string): boolean {
  return timingSafeEqual(digest(given), digest(token));
}

/** `Authorization: Bearer <token>` carries the token. */
export function bearerMatches(authorization: string | null, token: string): boolean {
  const m = authorization?.match(/^Bearer +(\S+) *$/i);
  return m ? tokenMatches(m[1], token) : false;
}
