import Link from "next/link";
import { currentSession } from "@/app/_session/currentSession";
import { SESSION_DAYS } from "@/db/queries/sessions";
import { accessToken } from "@/lib/http/accessToken";
import { safeNextPath } from "@/lib/http/safeNext";
import { firstParam as one } from "@/lib/http/searchParam";
import { logoutAction } from "./actions";
import { LoginForm } from "./LoginForm";

export const metadata = { title: "Sign in" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const NOTICES: Record<string, React.ReactNode> = {
  "url-token": (
    <>
      Access tokens in the address (<code className="whitespace-nowrap">?token=…</code>) are no longer
      accepted: they end up in browser history and server logs. Paste the token below once; the browser then
      keeps a session cookie instead.
    </>
  ),
  "logged-out": "You are signed out.",
};

export default async function LoginPage({ searchParams }: Props) {
  const sp = await searchParams;
  const next = safeNextPath(one(sp.next));
  const notice = NOTICES[one(sp.reason) ?? ""];
  const card = "mx-auto mt-8 max-w-md space-y-4 rounded-lg border border-slate-200 bg-white p-6";
  if (!accessToken()) {
    return (
      <div className={card} data-testid="login-page">
        <h1 className="text-lg font-semibold">No sign-in needed</h1>
        <p className="text-sm text-slate-700">
          This server has no access token: it answers only on this machine, to anyone on it.
        </p>
        <Link href={next} className="text-sm text-indigo-700 underline">
          Continue
        </Link>
      </div>
    );
  }
  const session = await currentSession();
  return (
    <div className={card} data-testid="login-page">
      <h1 className="text-lg font-semibold">Sign in to assumeprobe</h1>
      {notice ? (
        <p className="rounded bg-amber-50 p-3 text-sm text-amber-900" data-testid="login-notice">
          {notice}
        </p>
      ) : null}
      {session ? (
        <div className="space-y-3 text-sm text-slate-700" data-testid="login-signed-in">
          <p>
            Signed in
            {session.reviewer ? (
              <>
                {" "}
                as <strong className="[overflow-wrap:anywhere]">{session.reviewer}</strong>
              </>
            ) : null}{" "}
            until{" "}
            <span className="whitespace-nowrap">{session.expiresAt.slice(0, 16).replace("T", " ")} UTC</span>.
          </p>
          <div className="flex items-center gap-3">
            <Link href={next} className="rounded bg-slate-900 px-3 py-1.5 text-white">
              Continue
            </Link>
            <form action={logoutAction}>
              <button type="submit" className="rounded border border-slate-300 px-3 py-1.5">
                Sign out
              </button>
            </form>
          </div>
        </div>
      ) : (
        <>
          <p className="text-sm text-slate-700">
            This server requires its access token (ASSUMEPROBE_TOKEN). Signing in keeps a session cookie for{" "}
            {SESSION_DAYS} days; scripts send <code className="text-xs">Authorization: Bearer …</code>{" "}
            instead.
          </p>
          <LoginForm next={next} />
        </>
      )}
    </div>
  );
}
