import { cookies } from "next/headers";
import { currentSession } from "@/app/_session/currentSession";
import { ReviewerSchema } from "@/lib/review/contract";

/** The cookie that carries the reviewer name the browser gave (set by setReviewerAction). */
export const REVIEWER_COOKIE = "assumeprobe_reviewer";

export interface Reviewer {
  /** null: the browser has not given a name yet. */
  name: string | null;
  /** "session": the name belongs to the logged-in session (token servers) and the page cannot change it. */
  source: "session" | "browser";
}

/**
 * Who is reviewing: the one lookup every review goes through. On a token server the name belongs
 * to the session that logged in (the name given on /login); otherwise, and for a session that gave
 * none, it is the name the browser gave once, kept in a cookie.
 */
export async function currentReviewer(): Promise<Reviewer> {
  const session = await currentSession();
  if (session?.reviewer) return { name: session.reviewer, source: "session" };
  const raw = (await cookies()).get(REVIEWER_COOKIE)?.value;
  if (raw === undefined) return { name: null, source: "browser" };
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return { name: null, source: "browser" };
  }
  const parsed = ReviewerSchema.safeParse(decoded);
  return { name: parsed.success ? parsed.data : null, source: "browser" };
}
