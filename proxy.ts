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
  const path = req.nextUrl.pathname;
  if (STATIC_FILES.has(path)) {
    // The icons are public files: anyone may fetch them, no one may post to them.
    if (req.method === "GET" || req.method === "HEAD") return NextResponse.next();
    return text(405, `${req.method} is not allowed on ${path}: it is a file to GET`, { allow: "GET, HEAD" });
  }
  return guardRequest(req) ?? actionBodyProblem(req) ?? NextResponse.next();
}

/** The files of public/ the proxy sees (only to refuse other methods than GET and HEAD). */
const STATIC_FILES = new Set(["/favicon.ico", "/icon.svg"]);

/**
 * A server action (a form of a page: a review, a name, a login) takes a body of at most
 * `ACTION_BODY_MAX` bytes, Next.js's `serverActions.bodySizeLimit`; past it Next.js throws (a 500
 * with no message the page can show). A request that declares a longer body, or that carries one
 * without declaring its length, is answered here: 413 with the limit.
 */
const ACTION_BODY_MAX = 1024 * 1024;

function actionBodyProblem(req: NextRequest): NextResponse | null {
  if (req.method !== "POST" || !req.headers.has("next-action")) return null;
  const raw = req.headers.get("content-length");
  const declared = raw !== null && /^\d+$/.test(raw.trim()) ? Number(raw) : null;
  if (declared !== null && declared <= ACTION_BODY_MAX) return null;
  return text(
    413,
    declared === null
      ? "a form's request must declare its length (Content-Length), of at most 1 MB"
      : `the form's request is ${declared} bytes, over the limit of 1 MB for a form (a review note, a name, a login): shorten what was typed`,
  );
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
  // Not /api/upload nor /fixtures/import: running the proxy for a request makes Next.js buffer its
  // body in memory and keep only the first 10 MB. Those routes call `guardRequest` themselves before
  // reading the body. The icons pass here only to refuse methods other than GET.
  matcher: ["/((?!_next/static|_next/image|api/upload$|fixtures/import$).*)"],
};
