import { cookies } from "next/headers";
import { getDb } from "@/db/client";
import { findSession, SESSION_COOKIE, type Session } from "@/db/queries/sessions";
import { accessToken } from "@/lib/http/accessToken";

/** The browser's live session on a server with an access token; null without a token or a session. */
export async function currentSession(): Promise<Session | null> {
  const token = accessToken();
  if (!token) return null;
  const id = (await cookies()).get(SESSION_COOKIE)?.value;
  return findSession(getDb(), id, token);
}

/**
 * The reviewer name given at login, for the reviews this request makes; null when the server
 * has no access token, the request came with a bearer token instead of a session, or the login
 * gave no name (the browser's remembered name applies then).
 */
export async function currentReviewer(): Promise<string | null> {
  return (await currentSession())?.reviewer ?? null;
}
