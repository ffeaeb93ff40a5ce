/**
 * Which Host names the server answers (against DNS rebinding: a page on an attacker's domain whose
 * name is made to resolve to 127.0.0.1 sends that name as its Host), and whether a request's
 * Origin is the server itself (against cross-site requests: a form or a `text/plain` fetch from
 * another site needs no preflight).
 */

/** A Host (or X-Forwarded-Host, or allow-list entry) as a lower-cased name and an optional port. */
export interface Authority {
  /** Lower-cased, without a trailing dot; an IPv6 literal keeps its brackets (`[::1]`). */
  name: string;
  port: string | null;
}

const NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;
const PORT = /^[0-9]{1,5}$/;

/** Parses `name[:port]` or `[v6][:port]`; null when it is not one. */
export function parseAuthority(raw: string | null | undefined): Authority | null {
  if (!raw) return null;
  const s = raw.trim().toLowerCase();
  let name: string;
  let port: string | null = null;
  if (s.startsWith("[")) {
    const end = s.indexOf("]");
    if (end < 0) return null;
    name = s.slice(0, end + 1);
    const rest = s.slice(end + 1);
    if (rest !== "") {
      if (!rest.startsWith(":")) return null;
      port = rest.slice(1);
    }
    if (!IPV6.test(name)) return null;
  } else {
    const colon = s.lastIndexOf(":");
    name = colon < 0 ? s : s.slice(0, colon);
    port = colon < 0 ? null : s.slice(colon + 1);
    if (name.endsWith(".")) name = name.slice(0, -1);
    if (!NAME.test(name)) return null;
  }
  if (port !== null && (!PORT.test(port) || Number(port) > 65535)) return null;
  return { name, port };
}

/** The loopback names a server answers by default, with any port. */
export const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"] as const;

/** ASSUMEPROBE_ALLOWED_HOSTS: comma-separated names, each with an optional port (`dash.example.com:8443`). */
export function allowedHostList(env = process.env.ASSUMEPROBE_ALLOWED_HOSTS): Authority[] {
  const out: Authority[] = [];
  for (const part of (env ?? "").split(",")) {
    if (part.trim() === "") continue;
    // A bare IPv6 address is accepted without brackets too.
    const raw = /^[0-9a-f]*:[0-9a-f:.]*$/i.test(part.trim()) ? `[${part.trim()}]` : part;
    const a = parseAuthority(raw);
    if (a) out.push(a);
  }
  return out;
}

/** Whether the server answers this Host: a loopback name, or an allowed one (its port too, when the entry names one). */
export function hostAllowed(host: Authority, allowed: readonly Authority[]): boolean {
  if ((LOOPBACK_NAMES as readonly string[]).includes(host.name)) return true;
  return allowed.some((a) => a.name === host.name && (a.port === null || a.port === host.port));
}

/**
 * Whether an Origin header names the site the request was sent to (`host`, the Host or the
 * X-Forwarded-Host a proxy in front set). `null` (sandboxed frames, file pages) and anything that
 * is not an http(s) origin never match.
 */
export function originMatches(origin: string, host: Authority): boolean {
  const m = /^(https?):\/\/([^/?#@\s]+)$/i.exec(origin.trim());
  if (!m) return false;
  const o = parseAuthority(m[2]);
  if (!o) return false;
  const defaultPort = m[1].toLowerCase() === "https" ? "443" : "80";
  return o.name === host.name && (o.port ?? defaultPort) === (host.port ?? defaultPort);
}

/** Whether an address the server is bound to only takes connections from this machine. */
export function isLoopbackAddress(address: string): boolean {
  const a = address.toLowerCase();
  if (a === "::1" || a === "localhost") return true;
  const v4 = a.startsWith("::ffff:") ? a.slice(7) : a;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}
