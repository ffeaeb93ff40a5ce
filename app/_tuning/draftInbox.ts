"use client";

import { useEffect, useRef } from "react";
import type { TuningTarget } from "@/lib/tuning/contract";
import type { TermChange } from "@/lib/tuning/types";

/**
 * One click from a suggestion into the page's draft: the suggestions panel sends the change, the
 * draft editor on the same page (the lexicon's, or the probe's tune editor) takes it. A window
 * event, so the two stay separate components; the editor marks the event handled, so the panel
 * knows the change landed.
 */
const EVENT = "assumeprobe:take-suggestion";

interface TakeDetail {
  target: TuningTarget;
  changes: TermChange[];
  handled: boolean;
}

const sameTarget = (a: TuningTarget, b: TuningTarget) =>
  a.kind === b.kind && (a.kind === "lexicon" || (b.kind === "probe" && a.probe === b.probe));

/** Sends changes to the page's draft; false when no draft editor for that target took them. */
export function takeIntoDraft(target: TuningTarget, changes: TermChange[]): boolean {
  const detail: TakeDetail = { target, changes, handled: false };
  window.dispatchEvent(new CustomEvent<TakeDetail>(EVENT, { detail }));
  return detail.handled;
}

/** For a draft editor: calls `take` with every change a suggestion sends to this target. */
export function useDraftInbox(target: TuningTarget, take: (changes: TermChange[]) => void): void {
  const latest = useRef(take);
  latest.current = take;
  const key = target.kind === "lexicon" ? "lexicon" : `probe:${target.probe}`;
  useEffect(() => {
    const mine: TuningTarget =
      key === "lexicon" ? { kind: "lexicon" } : { kind: "probe", probe: key.slice(6) };
    const on = (e: Event) => {
      const d = (e as CustomEvent<TakeDetail>).detail;
      if (!d || !sameTarget(d.target, mine)) return;
      d.handled = true;
      latest.current(d.changes);
    };
    window.addEventListener(EVENT, on);
    return () => window.removeEventListener(EVENT, on);
  }, [key]);
}
