import type { z } from "zod";

/**
 * The one error type for a request that cannot be done as asked: the user's to fix (a bad term,
 * an unknown probe, a read-only set), never a crash. Its message is shown as it is; its `code`
 * says which refusal it is, for code that must tell them apart. Every domain's refusal extends it
 * (`FixtureError`, `ReviewError`, `LexiconError`, ...), so a caller that only needs "is this the
 * user's to fix?" asks `isUserError(e)` instead of a chain of `instanceof`.
 */
export class UserError<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Whether `e` is a refusal to show the user (optionally with one of `codes`). */
export function isUserError(e: unknown, ...codes: string[]): e is UserError {
  return e instanceof UserError && (codes.length === 0 || codes.includes(e.code));
}

/**
 * Bad input as one line, for a server action's refusal or a command's usage error: every issue as
 * `where: what`, joined by "; ". `where` is the issue's path, or the form's own label for that
 * field when `labels` names one (so a form's error says "Your name", not "reviewer").
 */
export function describeInvalid(error: z.ZodError, labels: Record<string, string> = {}): string {
  return error.issues
    .map((i) => {
      if (!i.path.length) return i.message;
      const path = i.path.map(String).join(".");
      return `${labels[path] ?? path}: ${i.message}`;
    })
    .join("; ");
}
