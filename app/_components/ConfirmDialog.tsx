"use client";

import { type ReactNode, type Ref, type RefObject, useCallback, useEffect, useId, useRef } from "react";

const TONES = {
  danger: "bg-red-700",
  primary: "bg-indigo-700",
  neutral: "bg-slate-900",
} as const;

/**
 * The one modal dialog: a `<dialog>` holding a form, a title, what will happen, an error if any,
 * Cancel and the confirm button. The confirm button submits the form: to a server `action`, or
 * to the caller's `onSubmit` (Enter in a field submits too). Esc cancels (the native dialog's
 * cancel); opening it puts focus on Cancel, the safe choice, or on `initialFocus` where the
 * dialog asks for something to be typed.
 */
export function ConfirmDialog({
  dialog,
  title,
  children,
  action,
  onSubmit,
  confirm,
  tone = "danger",
  pending = false,
  error,
  cancel = "Cancel",
  initialFocus,
  onClose,
  wide = false,
  testId,
  confirmTestId,
  errorTestId,
  cancelTestId,
}: {
  dialog: Ref<HTMLDialogElement>;
  title: string;
  children: ReactNode;
  /** The form's server action; the confirm button submits it. */
  action?: (form: FormData) => void;
  /** The caller's own handler of a submit (the page's state, not a form post). */
  onSubmit?: () => void;
  /** The confirm button's label (already saying "…ing" while pending); null: no confirm button. */
  confirm: string | null;
  /** The confirm button's colour: red for what cannot be undone, indigo to go ahead, dark for a first step. */
  tone?: keyof typeof TONES;
  pending?: boolean;
  /** A message (shown as an alert) or the caller's own element. */
  error?: ReactNode;
  /** The Cancel button's label ("Close" once there is nothing left to cancel). */
  cancel?: string;
  /** What takes the focus when the dialog opens, instead of Cancel: the field it asks for. */
  initialFocus?: RefObject<HTMLElement | null>;
  onClose?: () => void;
  wide?: boolean;
  testId?: string;
  confirmTestId?: string;
  errorTestId?: string;
  cancelTestId?: string;
}) {
  const own = useRef<HTMLDialogElement | null>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = own.current;
    if (!d) return;
    // Focus the safe choice whenever the dialog opens (showModal would focus the first control).
    const observer = new MutationObserver(() => {
      if (d.open) (initialFocus?.current ?? cancelButton.current)?.focus();
    });
    observer.observe(d, { attributes: true, attributeFilter: ["open"] });
    return () => observer.disconnect();
  }, [initialFocus]);
  // The caller's ref (an object or a forwarded one) and this dialog's own both see the element.
  const setDialog = useCallback(
    (el: HTMLDialogElement | null) => {
      own.current = el;
      if (typeof dialog === "function") dialog(el);
      else if (dialog) dialog.current = el;
    },
    [dialog],
  );
  return (
    <dialog
      ref={setDialog}
      onClose={onClose}
      aria-labelledby={titleId}
      className={`m-auto ${wide ? "w-[min(32rem,calc(100vw-2rem))]" : "w-[min(28rem,calc(100vw-2rem))]"} rounded-lg border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/30`}
      data-testid={testId}
    >
      <form
        action={action}
        // Without an action or a handler, submitting only closes the dialog.
        method={action || onSubmit ? undefined : "dialog"}
        onSubmit={
          onSubmit
            ? (e) => {
                e.preventDefault();
                onSubmit();
              }
            : undefined
        }
        className="space-y-3 p-4"
      >
        <h2 id={titleId} className="text-base font-semibold text-slate-900">
          {title}
        </h2>
        {children}
        {typeof error === "string" && error !== "" ? (
          <p role="alert" className="rounded bg-red-50 p-2 text-sm text-red-800" data-testid={errorTestId}>
            {error}
          </p>
        ) : typeof error === "string" ? null : (
          error
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <button
            ref={cancelButton}
            type="button"
            onClick={() => own.current?.close()}
            className="rounded border border-slate-300 px-3 py-1.5 text-sm"
            data-testid={cancelTestId}
          >
            {cancel}
          </button>
          {confirm === null ? null : (
            <button
              type="submit"
              disabled={pending}
              className={`rounded ${TONES[tone]} px-3 py-1.5 text-sm text-white disabled:opacity-60`}
              data-testid={confirmTestId}
            >
              {confirm}
            </button>
          )}
        </div>
      </form>
    </dialog>
  );
}

/**
 * The confirm button of a dialog that counts before it acts (a bulk relabel, a bulk add): "Count
 * the fields", dark, until there is a count to act on, then the action, indigo; each says "…ing"
 * while it runs. Spread into ConfirmDialog's props.
 */
export function countFirst(o: {
  counted: boolean;
  busy: "counting" | "acting" | null;
  action: string;
  acting: string;
  testIds: { count: string; act: string };
}) {
  return {
    confirm: o.counted
      ? o.busy === "acting"
        ? o.acting
        : o.action
      : o.busy === "counting"
        ? "Counting…"
        : "Count the fields",
    tone: o.counted ? ("primary" as const) : ("neutral" as const),
    pending: o.busy !== null,
    confirmTestId: o.counted ? o.testIds.act : o.testIds.count,
  };
}
