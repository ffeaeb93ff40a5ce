import type { z } from "zod";
import { describeInvalid, isUserError } from "@/lib/errors";

/**
 * The one shape a server action refuses with: `ok: false` and a message the page shows as it is
 * (`needsReviewer` when the page should ask for a name first).
 */
export type ActionFail = { ok: false; error: string; needsReviewer?: true };

/** What a form's `useActionState` holds: nothing yet, a refusal, or a success with no payload. */
export interface FormState {
  ok?: boolean;
  error?: string;
}

/**
 * Parses a server action's input with its schema, then runs the action on the parsed data; bad
 * input answers `{ ok: false, error }` naming each field and what is wrong with it, and the action
 * does not run. Errors the action throws (and Next's redirects) pass through untouched.
 */
export async function validated<S extends z.ZodType, R>(
  schema: S,
  input: unknown,
  run: (data: z.output<S>) => R | Promise<R>,
  options: { labels?: Record<string, string> } = {},
): Promise<R | ActionFail> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) return { ok: false, error: describeInvalid(parsed.error, options.labels) };
  return run(parsed.data);
}

/**
 * What an action answers when its work threw: a user's error (`UserError`: a read-only set, a bad
 * term) as its message; anything else is logged as `what` and answered with `retry`, never shown raw.
 */
export function refusal(e: unknown, what: string, retry: string): ActionFail {
  if (isUserError(e)) return { ok: false, error: e.message };
  console.error(what, e);
  return { ok: false, error: retry };
}
