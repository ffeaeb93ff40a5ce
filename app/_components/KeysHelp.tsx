"use client";

import { forwardRef } from "react";

export interface KeyHelp {
  key: string;
  does: string;
}

/** The "?" button and the dialog listing a page's keyboard shortcuts. */
export const KeysHelp = forwardRef<
  HTMLDialogElement,
  { keys: KeyHelp[]; ready: boolean; onOpen: () => void; testId?: string }
>(function KeysHelp({ keys, ready, onOpen, testId = "keys" }, dialog) {
  return (
    <>
      <button
        type="button"
        onClick={onOpen}
        className="rounded border border-slate-300 bg-white px-2 py-1 text-xs text-slate-700 hover:bg-slate-50"
        data-testid={`${testId}-button`}
        data-ready={ready ? "yes" : "no"}
        aria-haspopup="dialog"
      >
        <kbd className="font-mono">?</kbd> keys
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={`${testId}-title`}
        className="m-auto w-full max-w-sm rounded-lg border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/30"
        data-testid={`${testId}-dialog`}
      >
        <div className="p-4">
          <h2 id={`${testId}-title`} className="text-sm font-semibold text-slate-900">
            Keyboard shortcuts
          </h2>
          <table className="mt-2 w-full text-sm">
            <tbody>
              {keys.map((k) => (
                <tr key={k.key} className="border-b border-slate-100 last:border-0">
                  <th scope="row" className="py-1 pr-3 text-left font-normal whitespace-nowrap">
                    <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs">
                      {k.key}
                    </kbd>
                  </th>
                  <td className="py-1 text-slate-700">{k.does}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-2 text-xs text-slate-500">Keys are ignored while you type in a field.</p>
          <form method="dialog" className="mt-3 text-right">
            <button
              type="submit"
              className="rounded bg-slate-900 px-3 py-1 text-sm text-white"
              data-testid={`${testId}-close`}
            >
              Close
            </button>
          </form>
        </div>
      </dialog>
    </>
  );
});
