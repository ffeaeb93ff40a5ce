/**
 * The runner's retry policy (DESIGN.md, "Running probes"): the SDK's own retries are off; ours retry
 * 429, 5xx, timeouts and dropped connections up to 5 times, exponentially with jitter, honouring
 * `retry-after` up to 60 s. 401, 404 and a refused connection stop the run at once; any other answer
 * the server refused (400, 403, 422...) fails its sample without a retry, as a retry would be refused
 * the same way.
 */

export type FailureKind =
  | "auth" // 401: the key
  | "not_found" // 404: the model name, or a base URL without /v1
  | "refused" // no server at the address
  | "rate_limited" // 429
  | "server" // 5xx
  | "timeout" // no whole answer within --timeout
  | "dropped" // the connection broke
  | "rejected" // another 4xx
  | "unreadable" // a 2xx whose body could not be read, or that is no chat completion
  | "too_large"; // an answer larger than ingest's record limit

export interface Failure {
  kind: FailureKind;
  /** The HTTP status, when there was an answer. */
  status?: number;
  /** What went wrong, already scrubbed of secrets. */
  message: string;
  /** How long the server asked us to wait (retry-after-ms or retry-after), in ms. */
  retryAfterMs?: number;
}

export const MAX_RETRIES = 5;
export const MAX_RETRY_AFTER_MS = 60_000;
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;

const RETRYABLE: ReadonlySet<FailureKind> = new Set(["rate_limited", "server", "timeout", "dropped"]);
const FATAL: ReadonlySet<FailureKind> = new Set(["auth", "not_found", "refused"]);

export const isRetryable = (kind: FailureKind): boolean => RETRYABLE.has(kind);
/** A failure that stops the whole run: every other sample would fail the same way. */
export const isFatal = (kind: FailureKind): boolean => FATAL.has(kind);

/** The failure kind of an HTTP status that is not a success. */
export function kindOfStatus(status: number): FailureKind {
  if (status === 401) return "auth";
  if (status === 404) return "not_found";
  if (status === 429) return "rate_limited";
  if (status === 408) return "timeout";
  if (status >= 500) return "server";
  return "rejected";
}

interface HeaderLike {
  get(name: string): string | null;
}

/**
 * The wait a server asked for: `retry-after-ms`, else `retry-after` in seconds or as an HTTP date;
 * undefined when it asked for none (or said something unreadable). Never negative.
 */
export function parseRetryAfter(headers: HeaderLike | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = headers.get("retry-after");
  if (after === null || after.trim() === "") return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(after)) return Math.max(0, Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * How long to wait before retry number `retry` (1 for the first): what the server asked for, up to
 * 60 s; else 0.5 s doubling to at most 8 s, less up to a quarter at random, so runners that failed
 * together do not retry together.
 */
export function retryDelayMs(retry: number, failure: Failure, random: () => number = Math.random): number {
  if (failure.retryAfterMs !== undefined) return Math.min(failure.retryAfterMs, MAX_RETRY_AFTER_MS);
  const base = Math.min(BASE_DELAY_MS * 2 ** (retry - 1), MAX_DELAY_MS);
  return base * (1 - 0.25 * random());
}

/** The message that stops a run: what happened and what to fix. `where` is the base URL, safe to print. */
export function fatalMessage(failure: Failure, where: string, model: string): string {
  const said = failure.message ? ` (${failure.message})` : "";
  switch (failure.kind) {
    case "auth":
      return `${where} refused the API key (401)${said}: set OPENAI_API_KEY to a key this server accepts`;
    case "not_found":
      return `${where} answered 404 for model "${model}"${said}: check --model against the server's model list, and that --base-url ends where the API starts (usually /v1)`;
    case "refused":
      return `no server answers at ${where}${said}: start it, or check --base-url (or OPENAI_BASE_URL)`;
    default:
      return `${where}: ${failure.message}`;
  }
}
