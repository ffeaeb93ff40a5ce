import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import { isObject } from "../isObject";
import type { ChatRequest } from "./request";
import { type Failure, type FailureKind, kindOfStatus, parseRetryAfter } from "./retry";
import { scrubText } from "./scrub";

/** What one POST to /chat/completions gave: the whole payload, or why there is none. */
export type Attempt = { ok: true; raw: unknown } | { ok: false; failure: Failure };

export interface ChatClient {
  /** One attempt: one POST, no retry. `stop` aborts it (the run is stopping). */
  attempt(body: ChatRequest, stop?: AbortSignal): Promise<Attempt>;
}

export interface ChatClientOptions {
  baseURL: string;
  apiKey: string;
  /** The whole attempt, answer body included. */
  timeoutMs: number;
  /** What error messages must never hold (the key, when it is a real one). */
  secrets: readonly string[];
}

/** Error codes that mean nothing listens at the address: retrying cannot help. */
const NO_SERVER = new Set(["ECONNREFUSED", "ENOTFOUND", "EADDRNOTAVAIL"]);
const MAX_MESSAGE = 300;

/** Every `code` in an error's cause chain (undici nests them; a dual-stack connect has several). */
function errorCodes(e: unknown, depth = 0): string[] {
  if (!isObject(e) || depth > 8) return [];
  const out: string[] = typeof e.code === "string" ? [e.code] : [];
  if (Array.isArray(e.errors)) for (const x of e.errors) out.push(...errorCodes(x, depth + 1));
  if ("cause" in e) out.push(...errorCodes(e.cause, depth + 1));
  return out;
}

function clip(s: string): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > MAX_MESSAGE ? `${one.slice(0, MAX_MESSAGE)}…` : one;
}

/** The server's own words for an error answer, when its body has them. */
function serverMessage(e: APIError): string {
  const body = e.error;
  if (isObject(body) && typeof body.message === "string") return body.message;
  if (typeof body === "string") return body;
  return e.message.replace(/^\d{3}\s*/, "");
}

/** Reads a failed attempt as one of the policy's kinds, its message scrubbed of every secret. */
export function classifyError(
  e: unknown,
  timedOut: boolean,
  timeoutMs: number,
  secrets: readonly string[],
): Failure {
  const scrub = (s: string) => clip(scrubText(s, secrets));
  if (timedOut || e instanceof APIConnectionTimeoutError)
    return { kind: "timeout", message: `no whole answer within ${timeoutMs / 1000} s` };
  if (e instanceof APIConnectionError) {
    const codes = errorCodes(e);
    const refused = codes.find((c) => NO_SERVER.has(c));
    if (refused)
      return { kind: "refused", message: refused === "ECONNREFUSED" ? "connection refused" : refused };
    const cause = isObject(e.cause) && typeof e.cause.message === "string" ? e.cause.message : "";
    const detail = [codes[0], cause].filter(Boolean).join(": ");
    return { kind: "dropped", message: scrub(`connection failed${detail ? ` (${detail})` : ""}`) };
  }
  if (e instanceof APIError && typeof e.status === "number") {
    const kind: FailureKind = kindOfStatus(e.status);
    const failure: Failure = { kind, status: e.status, message: scrub(`${e.status}: ${serverMessage(e)}`) };
    const after = parseRetryAfter(e.headers);
    if (after !== undefined) failure.retryAfterMs = after;
    return failure;
  }
  // A 2xx body that would not read (cut off, not JSON where JSON was promised), or anything else.
  const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return { kind: "unreadable", message: scrub(`the answer could not be read (${message})`) };
}

/**
 * The official SDK, one attempt per call: its own retries are off (ours follow DESIGN.md), its
 * logging is off whatever OPENAI_LOG says (a debug log prints request details), and the attempt is
 * bounded as a whole: the SDK's timeout stops at the headers, ours also covers the body.
 */
export function createChatClient(o: ChatClientOptions): ChatClient {
  const client = new OpenAI({
    baseURL: o.baseURL,
    apiKey: o.apiKey,
    timeout: o.timeoutMs,
    maxRetries: 0,
    logLevel: "off",
  });
  const secrets = o.secrets;
  return {
    async attempt(body, stop) {
      const ctl = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        ctl.abort();
      }, o.timeoutMs);
      const onStop = () => ctl.abort();
      stop?.addEventListener("abort", onStop, { once: true });
      try {
        const raw: unknown = await client.chat.completions.create(body as never, {
          signal: ctl.signal,
          maxRetries: 0,
          timeout: o.timeoutMs,
        });
        return { ok: true, raw };
      } catch (e) {
        return { ok: false, failure: classifyError(e, timedOut, o.timeoutMs, secrets) };
      } finally {
        clearTimeout(timer);
        stop?.removeEventListener("abort", onStop);
      }
    },
  };
}
