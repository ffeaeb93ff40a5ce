import { currentSession } from "@/app/_session/currentSession";
import { logoutAction } from "@/app/login/actions";

/** Who is signed in, and sign out, on a server with an access token. */
export async function SessionBadge() {
  const session = await currentSession();
  if (!session) return null;
  return (
    <form action={logoutAction} className="ml-auto flex items-center gap-2 text-sm text-slate-600">
      {session.reviewer ? (
        <span className="max-w-[10rem] truncate" title={session.reviewer} data-testid="session-reviewer">
          {session.reviewer}
        </span>
      ) : null}
      <button
        type="submit"
        className="whitespace-nowrap text-slate-600 underline hover:text-slate-900"
        data-testid="logout"
      >
        Sign out
      </button>
    </form>
  );
}
