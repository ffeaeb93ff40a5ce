"use client";

import { useEffect, useState } from "react";
import {
  type FieldReviewNow,
  MEANWHILE_POLL_MS,
  type ReviewedMeanwhile,
  reviewedMeanwhile,
} from "@/lib/review/meanwhile";

/** Reviews this tab wrote (so its own are never news); kept for the tab's life. */
const own = new Set<number>();

/** Marks a review as this tab's own: the poll leaves it out. */
export function markOwnReview(id: number): void {
  own.add(id);
}

/**
 * The fields of a trace someone else reviewed since the page was drawn (`fields`: each field's
 * current review then), from `GET /traces/ID/reviews` every few seconds while the tab is
 * visible, and at once when it becomes visible again. Empty again whenever the fields' reviews
 * change (the page was drawn anew). A page opts in: one that must not show others' reviews (a
 * blind round's) leaves it out.
 */
export function useReviewedMeanwhile(
  traceId: number,
  fields: { field: string; current: { id: number } | null }[],
): ReviewedMeanwhile[] {
  const [seen, setSeen] = useState<ReviewedMeanwhile[]>([]);
  const knownKey = JSON.stringify(Object.fromEntries(fields.map((f) => [f.field, f.current?.id ?? null])));
  useEffect(() => {
    const base = JSON.parse(knownKey) as Record<string, number | null>;
    setSeen([]);
    let stopped = false;
    let inFlight = false;
    const poll = async () => {
      if (stopped || inFlight || document.visibilityState !== "visible") return;
      inFlight = true;
      try {
        const res = await fetch(`/traces/${traceId}/reviews`, { cache: "no-store" });
        if (!res.ok) return;
        const body = (await res.json()) as { reviews: Record<string, FieldReviewNow> };
        const found = reviewedMeanwhile(base, body.reviews ?? {}, own);
        if (!stopped) setSeen((prev) => (JSON.stringify(prev) === JSON.stringify(found) ? prev : found));
      } catch {
        // Offline or the server restarting: the next poll tries again.
      } finally {
        inFlight = false;
      }
    };
    const timer = setInterval(() => void poll(), MEANWHILE_POLL_MS);
    const onVisible = () => {
      if (document.visibilityState === "visible") void poll();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [traceId, knownKey]);
  return seen;
}
