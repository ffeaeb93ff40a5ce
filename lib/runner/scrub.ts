/**
 * The API key is never printed, logged, stored or put in an error message. Every message the runner
 * prints and every record it writes passes through here first, because an SDK or a server can echo
 * headers, URLs or the key itself (OpenAI's 401 names the key's first and last characters).
 */

export const REDACTED = "[redacted]";

/** Shortest run of a key's characters treated as the key: a partial echo leaks it too. */
const WINDOW = 8;

const PATTERNS: RegExp[] = [
  // Authorization headers and bearer tokens, whatever wraps them.
  /\b(authorization|proxy-authorization|api-key|x-api-key)(["']?\s*[:=]\s*["']?)(bearer\s+|basic\s+)?[^\s"',;}]+/gi,
  /\bbearer\s+[A-Za-z0-9._~+/=*-]+/gi,
  // Key-shaped tokens: sk-..., sk-proj-..., with or without masking stars.
  /\b(sk|rk|pk)-[A-Za-z0-9_*-]{6,}/g,
  // Credentials in URLs: user:password@ and key-like query parameters.
  /(\/\/)[^/\s@:]*:[^/\s@]*@/g,
  /([?&](?:api[-_]?key|key|token|access[-_]token|auth|sig|signature|password)=)[^&\s"'#]*/gi,
];

/** True when the text holds the secret or any run of 8 or more of its characters. */
function holdsSecret(text: string, secret: string): boolean {
  if (secret.length < WINDOW) return text.includes(secret);
  for (let i = 0; i + WINDOW <= secret.length; i++)
    if (text.includes(secret.slice(i, i + WINDOW))) return true;
  return false;
}

/** Only the secrets themselves and their partial echoes (longest first, so a long echo goes whole). */
function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length === 0 || !holdsSecret(out, secret)) continue;
    for (const f of new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]))
      out = out.split(f).join(REDACTED);
    for (let len = secret.length - 1; len >= WINDOW; len--) {
      for (let i = 0; i + len <= secret.length; i++) {
        const piece = secret.slice(i, i + len);
        if (out.includes(piece)) out = out.split(piece).join(REDACTED);
      }
    }
  }
  return out;
}

/** For messages: every secret (and any run of 8 or more of its characters) and every credential-shaped token. */
export function scrubText(text: string, secrets: readonly string[] = []): string {
  let out = scrubSecrets(text, secrets);
  out = out.replace(PATTERNS[0], (_m, name: string, sep: string) => `${name}${sep}${REDACTED}`);
  out = out.replace(PATTERNS[1], `Bearer ${REDACTED}`);
  out = out.replace(PATTERNS[2], REDACTED);
  out = out.replace(PATTERNS[3], `$1${REDACTED}@`);
  out = out.replace(PATTERNS[4], `$1${REDACTED}`);
  return out;
}

/**
 * For records: a value with the secrets scrubbed from every string in it (keys too), so a server that
 * echoes the request headers into its answer cannot get the key into the trace file. Only the secrets
 * go: a model's answer that happens to say "Bearer" stays as it was. A value with no secret in it comes
 * back as it is.
 */
export function scrubValue<T>(value: T, secrets: readonly string[]): T {
  const live = secrets.filter((s) => s.length > 0);
  if (live.length === 0) return value;
  const clean = (s: string) => (live.some((k) => holdsSecret(s, k)) ? scrubSecrets(s, live) : s);
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return clean(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        // defineProperty: a key such as "__proto__" stays a key.
        Object.defineProperty(out, clean(k), {
          value: walk(x),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

/** A URL safe to print: no user name, password, query or fragment. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return scrubText(url);
  }
}
