import { timingSafeEqual } from "node:crypto";
import { type NextRequest, NextResponse } from "next/server";

const COOKIE = "assumeprobe_token";

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * When ASSUMEPROBE_TOKEN is set (required for a server bound beyond loopback), every request must
 * carry it: `Authorization: Bearer <token>` for scripts, or a cookie set by visiting any page once
 * with `?token=<token>`.
 */
export function proxy(req: NextRequest) {
  const token = process.env.ASSUMEPROBE_TOKEN;
  if (!token) return NextResponse.next();
  const auth = req.headers.get("authorization");
  if (auth?.startsWith("Bearer ") && same(auth.slice(7), token)) return NextResponse.next();
  const cookie = req.cookies.get(COOKIE)?.value;
  if (cookie && same(cookie, token)) return NextResponse.next();
  const given = req.nextUrl.searchParams.get("token");
  if (given && same(given, token)) {
    const url = req.nextUrl.clone();
    url.searchParams.delete("token");
    const res = NextResponse.redirect(url);
    res.cookies.set(COOKIE, token, { httpOnly: true, sameSite: "strict", path: "/" });
    return res;
  }
  return new NextResponse(
    "assumeprobe: this server requires its access token. Open any page once with ?token=<ASSUMEPROBE_TOKEN>, or send Authorization: Bearer <token>.\n",
    { status: 401, headers: { "content-type": "text/plain; charset=utf-8" } },
  );
}

export const config = {
  // Not /api/upload: running the proxy for a request makes Next.js buffer its body in memory and
  // keep only the first 10 MB. The upload route calls `proxy` itself before reading the body.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|api/upload$).*)"],
};
