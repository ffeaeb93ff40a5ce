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
