"use client";

import { type ReactNode, useTransition } from "react";

/** The class of a text input or select in a round form. */
export const roundInput = "mt-1 block w-full rounded border border-slate-300 px-2 py-1.5 text-sm min-h-9";

/**
 * The frame both round forms share: a card headed by `title`, the form's own fields, a submit
 * button that says `button.pending` while `onSubmit` runs, then `status` and the error, if any.
 */
export function RoundForm({
  testId,
  headingId,
  title,
  onSubmit,
  button,
  error,
  errorTestId,
  status,
  children,
}: {
  testId: string;
  headingId: string;
  title: string;
  onSubmit: (form: FormData) => Promise<void>;
  button: { label: string; pending: string; testId: string };
  error?: string;
  errorTestId?: string;
  status?: ReactNode;
  children: ReactNode;
}) {
  const [pending, start] = useTransition();
  return (
    <form
      action={(form) => start(() => onSubmit(form))}
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      aria-labelledby={headingId}
      data-testid={testId}
    >
      <h2 id={headingId} className="font-semibold">
        {title}
      </h2>
      {children}
      <button
        type="submit"
        disabled={pending}
        className="min-h-9 rounded bg-slate-900 px-3 py-1.5 text-sm text-white disabled:opacity-60"
        data-testid={button.testId}
      >
        {pending ? button.pending : button.label}
      </button>
      {status}
      {error ? (
        <p role="alert" className="rounded bg-red-50 p-2 text-sm text-red-800" data-testid={errorTestId}>
          {error}
        </p>
      ) : null}
    </form>
  );
}
