import { type NextRequest, NextResponse } from "next/server";
import { getDb } from "./db/client";
import { findSession, SESSION_COOKIE } from "./db/queries/sessions";
import { accessToken, bearerMatches } from "./lib/http/accessToken";
import {
  type Authority,
  allowedHostList,
  hostAllowed,
  isLoopbackAddress,
  originMatches,
  parseAuthority,
} from "./lib/http/hosts";
import { requestProblem } from "./lib/http/requestCheck";
import { boundAddress } from "./lib/http/serverState";

const text = (status: number, message: string, headers: Record<string, string> = {}) =>
  new NextResponse(`assumeprobe: ${message}\n`, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers },
  });

const shown = (s: string) => JSON.stringify(s.slice(0, 100));

/** Route handlers answer machines (401); everything else is a page a browser opens (sent to /login). */
function isRouteHandler(path: string): boolean {
  return path.startsWith("/api/") || /^\/runs\/[^/]+\/export\/?$/.test(path);
}

function isPageRequest(req: NextRequest, path: string): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  if (isRouteHandler(path)) return false;
  return req.headers.has("rsc") || (req.headers.get("accept") ?? "").includes("text/html");
}

/** The site a browser believes it talks to: the X-Forwarded-Host a proxy in front set, else the Host. */
function siteOf(req: NextRequest, allowed: Authority[]): Authority | string {
  const rawHost = req.headers.get("host");
  const host = parseAuthority(rawHost);
  if (!host || !hostAllowed(host, allowed))
    return `this server does not answer to the host ${shown(rawHost ?? "")}: it answers 127.0.0.1, localhost, [::1] and the names in ASSUMEPROBE_ALLOWED_HOSTS`;
  const rawForwarded = req.headers.get("x-forwarded-host");
  if (rawForwarded === null) return host;
  const forwarded = parseAuthority(rawForwarded.split(",")[0]);
  if (!forwarded || !hostAllowed(forwarded, allowed))
    return `this server does not answer to the forwarded host ${shown(rawForwarded)}: add it to ASSUMEPROBE_ALLOWED_HOSTS`;
  return forwarded;
}

/**
 * Every request passes here first:
 * 1. the Host (and X-Forwarded-Host) must be a name the server answers: loopback names, or
 *    ASSUMEPROBE_ALLOWED_HOSTS (DNS rebinding);
 * 2. an Origin header, when present, must be this site (cross-site forms and `text/plain`
 *    fetches need no preflight); curl and the CLI send none;
 * 3. a server without ASSUMEPROBE_TOKEN answers only while it listens on loopback alone (the
 *    address comes from the listening socket itself, see lib/http/serverState.ts), whoever
 *    started it;
 * 4. with a token, a request carries `Authorization: Bearer <token>` or a live session cookie
 *    (made at /login); pages without either go to /login, anything else gets 401;
 * 5. a malformed path or query gets 400 with what is wrong (lib/http/requestCheck.ts).
 */
export function proxy(req: NextRequest) {
  return guardRequest(req) ?? NextResponse.next();
}

/**
 * The checks above: null when the request may go on, else the answer that refuses it. Exported so
 * a route the proxy's matcher leaves out can still call it first.
 */
export function guardRequest(req: NextRequest): NextResponse | null {
  const url = new URL(req.url);
  const site = siteOf(req, allowedHostList());
  if (typeof site === "string") return text(403, site);
  const origin = req.headers.get("origin");
  if (origin !== null && !originMatches(origin, site))
    return text(403, `cross-site request refused: Origin ${shown(origin)} is not this server`);

  const token = accessToken();
  if (!token) {
    const bound = boundAddress();
    if (bound === undefined || !isLoopbackAddress(bound))
      return text(
        503,
        `this server listens on ${bound ?? "an address it cannot tell"}, beyond loopback, and has no access token: set ASSUMEPROBE_TOKEN (npm start checks this before it listens), or listen on 127.0.0.1.`,
      );
  } else if (url.pathname !== "/login" && !url.pathname.startsWith("/login/")) {
    const refused = authenticate(req, url, token);
    if (refused) return refused;
  }

  const problem = requestProblem(url.pathname, url.search);
  return problem ? text(400, `bad request: ${problem}`) : null;
}

/** Null when the request is authenticated, else the answer for it. */
function authenticate(req: NextRequest, url: URL, token: string): NextResponse | null {
  if (bearerMatches(req.headers.get("authorization"), token)) return null;
  const cookie = req.cookies.get(SESSION_COOKIE)?.value;
  if (cookie && findSession(getDb(), cookie, token)) return null;
  const tokenInUrl = url.searchParams.has("token");
  if (!isPageRequest(req, url.pathname)) {
    return text(
      401,
      tokenInUrl
        ? "?token= is no longer accepted (it ends up in history and logs): send Authorization: Bearer <token>, or sign in at /login."
        : "this server requires its access token: send Authorization: Bearer <token>, or sign in at /login.",
      { "www-authenticate": 'Bearer realm="assumeprobe"' },
    );
  }
  // A link followed from another site arrives without the SameSite=Strict cookie: one hop from this
  // site's own page brings it along (and lands on /login if there is truly no session).
  if (!cookie && req.headers.get("sec-fetch-site") === "cross-site") return sameSiteHop(url);
  const next = new URL(url);
  next.searchParams.delete("token");
  const login = req.nextUrl.clone();
  login.pathname = "/login";
  login.search = "";
  login.searchParams.set("next", `${next.pathname}${next.search}`);
  if (tokenInUrl) login.searchParams.set("reason", "url-token");
  return NextResponse.redirect(login, 303);
}

function sameSiteHop(url: URL): NextResponse {
  const target = new URL(url);
  target.searchParams.delete("token");
  const href = `${target.pathname}${target.search}`.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
  return new NextResponse(
    `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><title>assumeprobe</title><p><a href="${href}">Continue to assumeprobe</a></p>\n`,
    {
      status: 200,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
      },
    },
  );
}

export const config = {
  // Not /api/upload: running the proxy for a request makes Next.js buffer its body in memory and
  // keep only the first 10 MB. The upload route calls `proxy` itself before reading the body.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg|api/upload$).*)"],
};
