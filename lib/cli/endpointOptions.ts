import { type ResumeState, readResumeFile } from "../runner/resume";
import { MAX_RETRIES } from "../runner/retry";
import { displayUrl } from "../runner/scrub";
import { openTraceSink, type TraceSink } from "../runner/traceSink";
import { UsageError } from "./usage";

/** Sent when OPENAI_API_KEY is unset: local servers (llama.cpp, vLLM, Ollama) need no key. */
export const PLACEHOLDER_KEY = "assumeprobe-no-key";
const DEFAULT_BASE_URL = "https://api.openai.com/v1";

/** The API key, from the environment only: never from a flag (it would sit in shell history and `ps`). */
export function apiKeyFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  const key = env.OPENAI_API_KEY?.trim();
  return key ? key : PLACEHOLDER_KEY;
}

/** What must never be printed or stored: the key, unless it is our own placeholder. */
export function secretsOf(key: string): string[] {
  return key === PLACEHOLDER_KEY ? [] : [key];
}

/** `--base-url`, else OPENAI_BASE_URL, else OpenAI's; an http(s) URL that holds no credentials. */
export function baseUrlOption(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const from = flag !== undefined ? "--base-url" : "OPENAI_BASE_URL";
  const value = (flag ?? env.OPENAI_BASE_URL ?? DEFAULT_BASE_URL).trim();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${from} is not a URL: "${displayUrl(value)}" (e.g. http://127.0.0.1:8080/v1)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UsageError(`${from} must be an http or https URL, got ${url.protocol}`);
  if (url.username || url.password)
    throw new UsageError(
      `${from} must not hold credentials (${displayUrl(value)}): put the key in OPENAI_API_KEY`,
    );
  return value.replace(/\/+$/, "");
}

/** Parses a number option that must be finite and not negative. */
export function nonNegativeNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n) || n < 0)
      throw new UsageError(`${name} must be a number of 0 or more, got "${value}"`);
    return n;
  };
}

/** Parses a positive number of seconds (fractions allowed). */
export function positiveSeconds(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n) || n <= 0)
      throw new UsageError(`${name} must be a positive number of seconds, got "${value}"`);
    return n;
  };
}

/** `--retries`: 0 to 5 (DESIGN.md's ceiling). */
export function retriesOption(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > MAX_RETRIES)
    throw new UsageError(`--retries must be an integer from 0 to ${MAX_RETRIES}, got "${value}"`);
  return n;
}

/** Opens --out, or says what is wrong with it (a directory, no permission) as a usage error. */
export function openOutSink(
  out: string | null,
  secrets: readonly string[],
  newlineFirst: boolean,
): TraceSink {
  try {
    return openTraceSink(out, secrets, { newlineFirst });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === "EISDIR"
        ? "is a directory"
        : code === "EACCES"
          ? "permission denied"
          : code === "ENOTDIR"
            ? "a parent is not a directory"
            : (e as Error).message;
    throw new UsageError(`--out ${out}: cannot append to it (${why})`);
  }
}

/** What --out already holds (for --resume and to refuse a second copy of a run), or a usage error. */
export async function readOut(out: string): Promise<ResumeState> {
  try {
    return await readResumeFile(out);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === "EISDIR" ? "is a directory" : code === "EACCES" ? "permission denied" : (e as Error).message;
    throw new UsageError(`--out ${out}: cannot read it (${why})`);
  }
}
