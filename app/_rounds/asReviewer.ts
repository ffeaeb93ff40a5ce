import type { z } from "zod";
import { type ActionFail, refusal, validated } from "@/app/_lib/validatedAction";
import { currentReviewer } from "@/app/_review/reviewer";
import { type Db, getDb } from "@/db/client";

const needsName = { ok: false, error: "say who is reviewing first", needsReviewer: true } as const;

/** What a round action says when its work throws: the log line and the message for the reviewer. */
export interface RoundActionOptions {
  what: string;
  retry: string;
  /** Names for the input's fields in the message about bad input. */
  labels?: Record<string, string>;
}

/**
 * The steps every round action takes before and after its own work: parse the input with its
 * schema, ask for the reviewer's name first when there is none, then run `work` with the database,
 * the parsed input and the reviewer; a throw is answered by `refusal(e, what, retry)`.
 */
export async function asReviewer<S extends z.ZodType, R>(
  schema: S,
  input: unknown,
  options: RoundActionOptions,
  work: (db: Db, data: z.output<S>, reviewer: string) => Promise<R>,
): Promise<R | ActionFail> {
  return validated(
    schema,
    input,
    async (data) => {
      const { name: reviewer } = await currentReviewer();
      if (!reviewer) return needsName;
      try {
        return await work(getDb(), data, reviewer);
      } catch (e) {
        return refusal(e, options.what, options.retry);
      }
    },
    { labels: options.labels },
  );
}
