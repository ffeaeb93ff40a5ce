"use client";

import { useEffect } from "react";
import { isTyping } from "@/app/_components/keyboard";

/** The reveal's way on: a plain link (no prefetch) that Enter or j also follows, as the queue goes on. */
export function NextField({ href }: { href: string }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e)) return;
      if (e.key === "Enter" || e.key === "j") {
        e.preventDefault();
        window.location.assign(href);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [href]);
  return (
    <a
      href={href}
      className="inline-block min-h-9 rounded bg-slate-900 px-3 py-2 text-sm text-white"
      data-testid="blind-next"
    >
      Next field <span className="text-xs text-slate-300">(Enter)</span>
    </a>
  );
}
