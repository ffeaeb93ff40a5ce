"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getDb } from "@/db/client";
import { createSession, deleteSession, REVIEWER_MAX, SESSION_COOKIE } from "@/db/queries/sessions";
import { accessToken, tokenMatches } from "@/lib/http/accessToken";
import { safeNextPath } from "@/lib/http/safeNext";

export interface LoginState {
  error?: string;
}

const LoginSchema = z.object({
  token: z.string().min(1, "paste the access token").max(4096, "that is longer than any access token"),
  reviewer: z
    .string()
    .trim()
    .max(REVIEWER_MAX, `a name is at most ${REVIEWER_MAX} characters`)
    .regex(/^[^\p{Cc}]*$/u, "a name cannot hold control characters")
    .transform((v) => v || null),
  next: z.string().optional(),
});

/** Exchanges the access token for a session cookie (random, HttpOnly, SameSite=Strict, with an expiry). */
export async function loginAction(_prev: LoginState, form: FormData): Promise<LoginState> {
  const token = accessToken();
  if (!token) return { error: "This server requires no access token." };
  const parsed = LoginSchema.safeParse({
    token: form.get("token") ?? "",
    reviewer: form.get("reviewer") ?? "",
    next: form.get("next") ?? undefined,
  });
  if (!parsed.success) return { error: parsed.error.issues.map((i) => i.message).join("; ") };
  if (!tokenMatches(parsed.data.token, token)) {
    // A little slower for every wrong guess.
    await new Promise((r) => setTimeout(r, 300));
    return { error: "That is not this server's access token." };
  }
  const session = createSession(getDb(), token, parsed.data.reviewer);
  const https = (await headers()).get("x-forwarded-proto")?.split(",")[0].trim() === "https";
  (await cookies()).set(SESSION_COOKIE, session.id, {
    httpOnly: true,
    sameSite: "strict",
    secure: https,
    path: "/",
    expires: session.expiresAt,
  });
  redirect(safeNextPath(parsed.data.next));
}

/** Ends the browser's session: the row and the cookie. */
export async function logoutAction(): Promise<void> {
  const jar = await cookies();
  deleteSession(getDb(), jar.get(SESSION_COOKIE)?.value);
  jar.delete(SESSION_COOKIE);
  redirect("/login?reason=logged-out");
}
