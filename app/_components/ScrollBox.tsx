"use client";

import { type ReactNode, useEffect, useRef, useState } from "react";

/**
 * A box that scrolls sideways when what it holds (a wide table) is wider than the screen, so
 * the page itself never does. When there is more to see, a shadow marks the hidden edge and a
 * "scroll →" hint says so in words. `relative` also contains absolutely placed children (an
 * `sr-only` header), which would otherwise widen the page from inside the box.
 */
export function ScrollBox({
  children,
  className = "",
  label,
  testId,
  more: what = "columns",
}: {
  children: ReactNode;
  className?: string;
  /** What the box holds, for screen readers ("Runs table"). */
  label: string;
  testId?: string;
  /** What lies beyond the edge, for the hint ("scroll → for more columns"). */
  more?: string;
}) {
  const box = useRef<HTMLElement>(null);
  const [more, setMore] = useState({ left: false, right: false });
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const update = () => {
      const left = el.scrollLeft > 1;
      const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setMore((m) => (m.left === left && m.right === right ? m : { left, right }));
    };
    update();
    el.addEventListener("scroll", update, { passive: true });
    const ro = new ResizeObserver(update);
    ro.observe(el);
    return () => {
      el.removeEventListener("scroll", update);
      ro.disconnect();
    };
  }, []);
  return (
    <div className="relative">
      <section
        ref={box}
        className={`scroll-box relative ${className}`}
        aria-label={label}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must be reachable by keyboard
        tabIndex={0}
        data-testid={testId}
        data-overflows={more.left || more.right ? "yes" : "no"}
      >
        {children}
      </section>
      {more.left ? <div aria-hidden="true" className="scroll-shade scroll-shade-left" /> : null}
      {more.right ? <div aria-hidden="true" className="scroll-shade scroll-shade-right" /> : null}
      {more.left || more.right ? (
        <p className="mt-1 text-right text-[11px] text-slate-500" data-testid="scroll-hint">
          {more.right ? `scroll → for more ${what}` : "← scroll back"}
        </p>
      ) : null}
    </div>
  );
}
