"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { type FormState, validated } from "@/app/_lib/validatedAction";
import { getDb } from "@/db/client";
import { createSession, deleteSession, REVIEWER_MAX, SESSION_COOKIE } from "@/db/queries/sessions";
import { accessToken, tokenMatches } from "@/lib/http/accessToken";
import { safeNextPath } from "@/lib/http/safeNext";

export type LoginState = FormState;

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
  if (!token) return { ok: false, error: "This server requires no access token." };
  return validated(
    LoginSchema,
    {
      token: form.get("token") ?? "",
      reviewer: form.get("reviewer") ?? "",
      next: form.get("next") ?? undefined,
    },
    async (d): Promise<FormState> => {
      if (!tokenMatches(d.token, token)) {
        // A little slower for every wrong guess.
        await new Promise((r) => setTimeout(r, 300));
        return { ok: false, error: "That is not this server's access token." };
      }
      const session = createSession(getDb(), token, d.reviewer);
      const https = (await headers()).get("x-forwarded-proto")?.split(",")[0].trim() === "https";
      (await cookies()).set(SESSION_COOKIE, session.id, {
        httpOnly: true,
        sameSite: "strict",
        secure: https,
        path: "/",
        expires: session.expiresAt,
      });
      redirect(safeNextPath(d.next));
    },
    { labels: { token: "Access token", reviewer: "Your name" } },
  );
}

/** Ends the browser's session: the row and the cookie. */
export async function logoutAction(): Promise<void> {
  const jar = await cookies();
  deleteSession(getDb(), jar.get(SESSION_COOKIE)?.value);
  jar.delete(SESSION_COOKIE);
  redirect("/login?reason=logged-out");
}
