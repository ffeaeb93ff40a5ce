"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { type KeyHelp, KeysHelp } from "./KeysHelp";
import { isTyping } from "./keyboard";

const KEYS: KeyHelp[] = [
  { key: "j", does: "next trace in this filter" },
  { key: "k", does: "previous trace in this filter" },
  { key: "u", does: "back to this trace's row in the run's list (same filter)" },
  { key: "?", does: "show this list" },
  { key: "Esc", does: "close this list" },
];

/**
 * Keyboard navigation of the trace page: j/k next/previous within the filter, u back to the
 * run, ? lists the keys. The hrefs are built on the server from the filter in the URL.
 */
export function TraceKeys({
  prevHref,
  nextHref,
  backHref,
  extraKeys = [],
}: {
  prevHref: string | null;
  nextHref: string | null;
  backHref: string;
  /** Keys other parts of the page handle (the review panel's), listed by `?` too. */
  extraKeys?: KeyHelp[];
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
      const go = (href: string | null, none: string, scroll = true) => {
        e.preventDefault();
        if (href) {
          setStatus("");
          router.push(href, { scroll });
        } else setStatus(none);
      };
      switch (e.key) {
        case "j":
          return go(nextHref, "No next trace in this filter.");
        case "k":
          return go(prevHref, "No previous trace in this filter.");
        case "u":
          // The run page scrolls to the row this trace came from itself.
          return go(backHref, "", false);
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
      <KeysHelp
        ref={dialog}
        keys={[...KEYS.slice(0, 3), ...extraKeys, ...KEYS.slice(3)]}
        ready={ready}
        onOpen={() => dialog.current?.showModal()}
      />
      <span role="status" aria-live="polite" className="text-xs text-slate-600" data-testid="keys-status">
        {status}
      </span>
    </>
  );
}
