"use client";

import { useCallback, useEffect, useRef, useState } from "react";

type JobAnswer<J> = { ok: true; job: J } | { ok: false };

/**
 * A background job (a bulk relabel, a bulk add) the page started or found running after a reload:
 * asked for its progress every 700 ms while it runs, stopped on request. `onEnd` is called when
 * it ends while followed, and after a stop (the run page then re-reads its rows).
 */
export function useBackgroundJob<J extends { id: number; status: string }>(
  running: J | null,
  actions: {
    status: (input: { id: number }) => Promise<JobAnswer<J>>;
    cancel: (input: { id: number }) => Promise<JobAnswer<J>>;
  },
  onEnd?: () => void,
): { job: J | null; setJob: (job: J | null) => void; cancel: () => Promise<void> } {
  const [job, setJob] = useState<J | null>(running);
  // The latest callbacks, so a new render's closures do not restart the poll.
  const latest = useRef({ actions, onEnd });
  latest.current = { actions, onEnd };

  useEffect(() => {
    if (job?.status !== "running") return;
    const t = setTimeout(async () => {
      const r = await latest.current.actions.status({ id: job.id });
      if (!r.ok) return;
      setJob(r.job);
      if (r.job.status !== "running") latest.current.onEnd?.();
    }, 700);
    return () => clearTimeout(t);
  }, [job]);

  const cancel = useCallback(async () => {
    if (!job) return;
    const r = await latest.current.actions.cancel({ id: job.id });
    if (r.ok) setJob(r.job);
    latest.current.onEnd?.();
  }, [job]);

  return { job, setJob, cancel };
}
