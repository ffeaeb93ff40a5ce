"use client";

import { useEffect, useRef, useState } from "react";
import { type KeyHelp, KeysHelp } from "@/app/_components/KeysHelp";
import { isTyping } from "@/app/_components/keyboard";

const KEYS: KeyHelp[] = [
  { key: "j / k", does: "move down / up the traces" },
  { key: "Enter or o", does: "open the highlighted trace" },
  { key: "n / p", does: "next / previous page" },
  { key: "/", does: "search text and argument values" },
  { key: "?", does: "show this list" },
];

/**
 * The run page's keyboard: move through the rows, open one, turn pages, search. Coming back
 * from a trace (`u`), its row starts highlighted, in view and active, so j/k go on from it.
 */
export function RunKeys() {
  const dialog = useRef<HTMLDialogElement>(null);
  const [active, setActive] = useState(-1);
  // Set once the handler is attached (after hydration).
  const [ready, setReady] = useState(false);

  useEffect(() => {
    const list = [...document.querySelectorAll<HTMLElement>('[data-testid="trace-row"]')];
    const i = list.findIndex((r) => r.dataset.cameFrom === "true");
    if (i < 0) return;
    setActive(i);
    // After the router has placed the page, not before it scrolls to the top.
    requestAnimationFrame(() => list[i].scrollIntoView({ block: "center" }));
  }, []);

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
    <KeysHelp
      ref={dialog}
      keys={KEYS}
      ready={ready}
      onOpen={() => dialog.current?.showModal()}
      testId="run-keys"
    />
  );
}
