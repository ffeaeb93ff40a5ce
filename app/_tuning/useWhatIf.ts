"use client";

import { useEffect, useRef, useState } from "react";
import type { TuneDraft } from "@/lib/tuning/contract";
import type { WhatIfReport } from "@/lib/tuning/whatIf";
import { whatIfAction } from "./actions";

/**
 * The live what-if of a draft: asked for a moment after the draft stops changing; an answer to an
 * older draft is dropped when a newer one was asked meanwhile.
 */
export function useWhatIf(draft: TuneDraft, dirty: boolean, delayMs = 350) {
  const [report, setReport] = useState<WhatIfReport | null>(null);
  const [state, setState] = useState<"idle" | "computing" | "ready">("idle");
  const [error, setError] = useState("");
  const seq = useRef(0);
  const key = JSON.stringify(draft);

  useEffect(() => {
    const mine = ++seq.current;
    if (!dirty) {
      setReport(null);
      setError("");
      setState("idle");
      return;
    }
    setState("computing");
    const t = setTimeout(async () => {
      try {
        const r = await whatIfAction(JSON.parse(key));
        if (mine !== seq.current) return;
        if (r.ok) {
          setReport(r.report);
          setError("");
        } else setError(r.error);
      } catch (e) {
        if (mine === seq.current) setError(`the what-if failed: ${(e as Error).message}`);
      }
      if (mine === seq.current) setState("ready");
    }, delayMs);
    return () => clearTimeout(t);
  }, [key, dirty, delayMs]);

  return { report, state, error };
}
