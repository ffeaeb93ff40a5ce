import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import { DEFAULT_MAX_RECORD_BYTES } from "../ingest/splitRecords";
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
/** Error codes of a connection that broke after the answer began (undici's "terminated"). */
const BROKEN = new Set(["UND_ERR_SOCKET", "UND_ERR_CLOSED", "ECONNRESET", "EPIPE", "ECONNABORTED"]);
const MAX_MESSAGE = 300;
/**
 * The largest answer payload taken: ingest's record limit (the same constant) less room for the
 * record's other fields (id, run, model, params), so every answer counted can be stored.
 */
export const RECORD_ROOM_BYTES = 16 * 1024;
export const MAX_ANSWER_BYTES = DEFAULT_MAX_RECORD_BYTES - RECORD_ROOM_BYTES;
/** How much of a body that is no chat completion the message shows. */
const BODY_START = 160;

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
  // The connection closed after the headers, in the middle of the body: dropped, as before them.
  const codes = errorCodes(e);
  const broken = codes.find((c) => BROKEN.has(c));
  if (broken || (e instanceof TypeError && e.message === "terminated")) {
    const cause =
      isObject(e) && isObject(e.cause) && typeof e.cause.message === "string" ? e.cause.message : "";
    const detail = [broken, cause].filter(Boolean).join(": ");
    return {
      kind: "dropped",
      message: scrub(`the connection closed in the middle of the answer${detail ? ` (${detail})` : ""}`),
    };
  }
  // A 2xx body that would not read (not JSON where JSON was promised), or anything else.
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
        const { data: raw, response } = await client.chat.completions
          .create(body as never, { signal: ctl.signal, maxRetries: 0, timeout: o.timeoutMs })
          .withResponse();
        const refused = answerProblem(raw, response.status, response.headers.get("content-type"));
        if (refused)
          return { ok: false, failure: { ...refused, message: clip(scrubText(refused.message, secrets)) } };
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

/**
 * Why a 2xx payload is not an answer the run may keep, or null: not a chat completion (a proxy's
 * page, a wrong base URL: fails its sample, with the start of the body, and a retry would get the
 * same), or larger than ingest could store as a record.
 */
export function answerProblem(raw: unknown, status: number, contentType: string | null): Failure | null {
  const isCompletion = isObject(raw) && Array.isArray(raw.choices);
  if (!isCompletion) {
    const text = typeof raw === "string" ? raw : (JSON.stringify(raw) ?? String(raw));
    const start = text.replace(/\s+/g, " ").trim().slice(0, BODY_START);
    const type = contentType?.split(";")[0].trim() || "no content type";
    return {
      kind: "unreadable",
      status,
      message: `the answer is not a chat completion (${status} ${type}): ${start}${text.length > BODY_START ? "…" : ""}`,
    };
  }
  const bytes = Buffer.byteLength(JSON.stringify(raw));
  if (bytes > MAX_ANSWER_BYTES)
    return {
      kind: "too_large",
      status,
      message: `the answer is ${bytes} bytes: over the record limit of ${DEFAULT_MAX_RECORD_BYTES} bytes ingest stores (less ${RECORD_ROOM_BYTES} for the record's other fields), so it is not kept`,
    };
  return null;
}
