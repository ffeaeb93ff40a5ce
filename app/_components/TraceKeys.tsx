"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";

const KEYS: { key: string; does: string }[] = [
  { key: "j", does: "next trace in this filter" },
  { key: "k", does: "previous trace in this filter" },
  { key: "u", does: "back to the run's trace list (same filter)" },
  { key: "?", does: "show this list" },
  { key: "Esc", does: "close this list" },
];

/** Typing in a field, or a key with a modifier, is never a shortcut. */
function isTyping(e: KeyboardEvent): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return true;
  const t = e.target as HTMLElement | null;
  if (!t) return false;
  const tag = t.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || t.isContentEditable;
}

/**
 * Keyboard navigation of the trace page: j/k next/previous within the filter, u back to the
 * run, ? lists the keys. The hrefs are built on the server from the filter in the URL.
 */
export function TraceKeys({
  prevHref,
  nextHref,
  backHref,
}: {
  prevHref: string | null;
  nextHref: string | null;
  backHref: string;
}) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const [status, setStatus] = useState("");
  // Set once the key handler is attached (after hydration): tests and people can rely on it.
  const [ready, setReady] = useState(false);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e)) return;
      if (dialog.current?.open && e.key !== "?") return;
      const go = (href: string | null, none: string) => {
        e.preventDefault();
        if (href) {
          setStatus("");
          router.push(href);
        } else setStatus(none);
      };
      switch (e.key) {
        case "j":
          return go(nextHref, "No next trace in this filter.");
        case "k":
          return go(prevHref, "No previous trace in this filter.");
        case "u":
          return go(backHref, "");
        case "?": {
          e.preventDefault();
          const d = dialog.current;
          if (d && !d.open) d.showModal();
          else d?.close();
          return;
        }
        default:
          return;
      }
    };
    window.addEventListener("keydown", onKey);
    setReady(true);
    return () => window.removeEventListener("keydown", onKey);
  }, [router, prevHref, nextHref, backHref]);

  return (
    <>
      <button
        type="button"
        onClick={() => dialog.current?.showModal()}
        className="rounded border border-slate-300 bg-white px-2 py-1 text-xs text-slate-700 hover:bg-slate-50"
        data-testid="keys-button"
        data-ready={ready ? "yes" : "no"}
        aria-haspopup="dialog"
      >
        <kbd className="font-mono">?</kbd> keys
      </button>
      <span role="status" aria-live="polite" className="text-xs text-slate-600" data-testid="keys-status">
        {status}
      </span>
      <dialog
        ref={dialog}
        aria-labelledby="keys-title"
        className="m-auto w-full max-w-sm rounded-lg border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/30"
        data-testid="keys-dialog"
      >
        <div className="p-4">
          <h2 id="keys-title" className="text-sm font-semibold text-slate-900">
            Keyboard shortcuts
          </h2>
          <table className="mt-2 w-full text-sm">
            <tbody>
              {KEYS.map((k) => (
                <tr key={k.key} className="border-b border-slate-100 last:border-0">
                  <th scope="row" className="py-1 pr-3 text-left font-normal">
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
              data-testid="keys-close"
            >
              Close
            </button>
          </form>
        </div>
      </dialog>
    </>
  );
}
