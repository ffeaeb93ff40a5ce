"use client";

import { useActionState } from "react";
import { type LoginState, loginAction } from "./actions";

/** The token and the reviewer's name; works without JavaScript (a plain POST of the form). */
export function LoginForm({ next }: { next: string }) {
  const [state, action, pending] = useActionState<LoginState, FormData>(loginAction, {});
  const input = "mt-1 w-full rounded border border-slate-300 px-2 py-1.5 text-sm text-slate-900";
  return (
    <form action={action} className="space-y-4" data-testid="login-form">
      <input type="hidden" name="next" value={next} />
      <label className="block text-sm text-slate-700">
        Access token
        <input
          type="password"
          name="token"
          required
          autoComplete="current-password"
          className={input}
          data-testid="login-token"
        />
      </label>
      <label className="block text-sm text-slate-700">
        Your name <span className="text-slate-500">(optional: the reviews you make carry it)</span>
        <input
          type="text"
          name="reviewer"
          maxLength={100}
          autoComplete="name"
          className={input}
          data-testid="login-reviewer"
        />
      </label>
      {state.error ? (
        <p role="alert" className="rounded bg-red-50 p-2 text-sm text-red-800" data-testid="login-error">
          {state.error}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded bg-slate-900 px-3 py-2 text-sm font-medium text-white disabled:opacity-60"
      >
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
