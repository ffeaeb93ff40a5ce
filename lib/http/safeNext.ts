/**
 * Where a login may send the browser afterwards: a path on this server, never another site
 * (`//evil.test`, `/\evil.test`, `https://…`, control characters), never the login page itself,
 * and never with a `token` parameter (tokens are not accepted in URLs). Anything else is `/`.
 */
export function safeNextPath(raw: unknown): string {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 2000) return "/";
  if (!raw.startsWith("/") || raw.startsWith("//")) return "/";
  // Browsers read a backslash as a slash, and drop tabs and line breaks from URLs.
  if (raw.includes("\\") || /\p{Cc}/u.test(raw)) return "/";
  const base = "http://next.invalid";
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return "/";
  }
  if (url.origin !== base) return "/";
  if (url.pathname === "/login" || url.pathname.startsWith("/login/")) return "/";
  if (url.searchParams.has("token")) url.searchParams.delete("token");
  return `${url.pathname}${url.search}${url.hash}`;
}
