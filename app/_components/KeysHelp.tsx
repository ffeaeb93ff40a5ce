"use client";

import { forwardRef } from "react";
import { ConfirmDialog } from "./ConfirmDialog";

export interface KeyHelp {
  key: string;
  does: string;
}

/** The "?" button and the dialog listing a page's keyboard shortcuts (nothing to confirm: only Close). */
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
      <ConfirmDialog
        dialog={dialog}
        title="Keyboard shortcuts"
        confirm={null}
        cancel="Close"
        testId={`${testId}-dialog`}
        cancelTestId={`${testId}-close`}
      >
        <table className="w-full text-sm">
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
        <p className="text-xs text-slate-500">Keys are ignored while you type in a field.</p>
      </ConfirmDialog>
    </>
  );
});
