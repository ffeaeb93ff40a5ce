"use client";

import { useEffect, useRef, useState } from "react";
import { isTyping } from "@/app/_components/keyboard";

const KEYS: { key: string; does: string }[] = [
  { key: "j / k", does: "move down / up the traces" },
  { key: "Enter or o", does: "open the highlighted trace" },
  { key: "n / p", does: "next / previous page" },
  { key: "/", does: "search text and argument values" },
  { key: "?", does: "show this list" },
];

/** The run page's keyboard: move through the rows, open one, turn pages, search. */
export function RunKeys() {
  const dialog = useRef<HTMLDialogElement>(null);
  const [active, setActive] = useState(-1);
  // Set once the handler is attached (after hydration).
  const [ready, setReady] = useState(false);

  useEffect(() => {
    const rows = () => [...document.querySelectorAll<HTMLElement>('[data-testid="trace-row"]')];
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "/" && !isTyping(e)) {
        e.preventDefault();
        document.querySelector<HTMLInputElement>('[data-testid="filter-q"]')?.focus();
        return;
      }
      if (isTyping(e) || dialog.current?.open) return;
      const list = rows();
      const click = (sel: string) => document.querySelector<HTMLElement>(sel)?.click();
      switch (e.key) {
        case "j":
        case "k": {
          e.preventDefault();
          setActive((i) => {
            const next = Math.max(0, Math.min(list.length - 1, e.key === "j" ? i + 1 : i - 1));
            list[next]?.scrollIntoView({ block: "nearest" });
            return next;
          });
          return;
        }
        case "Enter":
        case "o":
          if (active >= 0) list[active]?.querySelector<HTMLElement>('[data-testid="trace-link"]')?.click();
          return;
        case "n":
          return click('[data-testid="page-next"]');
        case "p":
          return click('[data-testid="page-prev"]');
        case "?":
          e.preventDefault();
          if (!dialog.current?.open) dialog.current?.showModal();
          return;
        default:
          return;
      }
    };
    window.addEventListener("keydown", onKey);
    setReady(true);
    return () => window.removeEventListener("keydown", onKey);
  }, [active]);

  useEffect(() => {
    const list = [...document.querySelectorAll<HTMLElement>('[data-testid="trace-row"]')];
    list.forEach((r, i) => {
      if (i === active) r.setAttribute("data-active", "true");
      else r.removeAttribute("data-active");
    });
  }, [active]);

  return (
    <>
      <button
        type="button"
        onClick={() => dialog.current?.showModal()}
        className="rounded border border-slate-300 bg-white px-2 py-1 text-xs text-slate-600 hover:bg-slate-50"
        aria-label="Keyboard shortcuts"
        data-testid="run-keys"
        data-ready={ready ? "true" : undefined}
      >
        Keys <kbd className="font-mono">?</kbd>
      </button>
      <dialog
        ref={dialog}
        className="m-auto w-[24rem] rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
        data-testid="run-keys-dialog"
      >
        <div className="p-4">
          <h2 className="mb-2 font-semibold">Keyboard</h2>
          <dl className="grid grid-cols-[7rem_1fr] gap-y-1 text-sm">
            {KEYS.map((k) => (
              <div key={k.key} className="contents">
                <dt>
                  <kbd className="rounded border border-slate-300 bg-slate-50 px-1 font-mono text-xs">
                    {k.key}
                  </kbd>
                </dt>
                <dd className="text-slate-700">{k.does}</dd>
              </div>
            ))}
          </dl>
          <form method="dialog" className="mt-3 text-right">
            <button type="submit" className="rounded border border-slate-300 px-3 py-1 text-sm">
              Close
            </button>
          </form>
        </div>
      </dialog>
    </>
  );
}
