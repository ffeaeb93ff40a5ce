"use client";

import { type ReactNode, type RefObject, useEffect, useRef } from "react";

/**
 * The one confirm dialog: a modal `<dialog>` holding a form (so the confirm button submits the
 * form's action), a title, what will happen, an error if any, Cancel and the confirm button.
 * Esc cancels (the native dialog's cancel); opening it puts focus on Cancel, the safe choice.
 */
export function ConfirmDialog({
  dialog,
  title,
  children,
  action,
  confirm,
  pending = false,
  error,
  testId,
  confirmTestId,
}: {
  dialog: RefObject<HTMLDialogElement | null>;
  title: string;
  children: ReactNode;
  /** The form's action; the confirm button submits it. */
  action: (form: FormData) => void;
  /** The confirm button's label (already saying "…ing" while pending). */
  confirm: string;
  pending?: boolean;
  /** A message (shown as an alert) or the caller's own element. */
  error?: ReactNode;
  testId?: string;
  confirmTestId?: string;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    // Focus the safe choice whenever the dialog opens (showModal would focus the first control).
    const observer = new MutationObserver(() => {
      if (d.open) cancel.current?.focus();
    });
    observer.observe(d, { attributes: true, attributeFilter: ["open"] });
    return () => observer.disconnect();
  }, [dialog]);
  return (
    <dialog
      ref={dialog}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
      data-testid={testId}
    >
      <form action={action} className="space-y-3 p-5">
        <h2 className="text-lg font-semibold">{title}</h2>
        {children}
        {typeof error === "string" ? (
          <p role="alert" className="rounded bg-red-50 p-2 text-sm text-red-800">
            {error}
          </p>
        ) : (
          error
        )}
        <div className="flex justify-end gap-2">
          <button
            ref={cancel}
            type="button"
            onClick={() => dialog.current?.close()}
            className="rounded border border-slate-300 px-3 py-1.5 text-sm"
          >
            Cancel
          </button>
          <button
            type="submit"
            disabled={pending}
            className="rounded bg-red-700 px-3 py-1.5 text-sm text-white disabled:opacity-60"
            data-testid={confirmTestId}
          >
            {confirm}
          </button>
        </div>
      </form>
    </dialog>
  );
}
