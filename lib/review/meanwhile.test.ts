import { describe, expect, it } from "vitest";
import { type FieldReviewNow, reviewedMeanwhile } from "./meanwhile";

const r = (id: number, reviewer = "bo", label: string | null = "ASK"): FieldReviewNow => ({
  id,
  label,
  reviewer,
  createdAt: "2026-12-01T10:00:00.000Z",
});

describe("reviewedMeanwhile", () => {
  it("lists fields whose review is newer than the page's, in the page's order", () => {
    const known = { timezone: 4, severity: null, duration: 9 };
    const now = { duration: r(12, "cy", null), timezone: r(4), severity: r(10) };
    expect(reviewedMeanwhile(known, now, new Set()).map((m) => [m.field, m.id, m.reviewer, m.label])).toEqual(
      [
        ["severity", 10, "bo", "ASK"],
        ["duration", 12, "cy", null],
      ],
    );
  });

  it("leaves out this tab's own reviews, fields the page does not show, and older answers", () => {
    const known = { timezone: 7, severity: null };
    const now = { timezone: r(5), severity: r(8), other: r(20) };
    expect(reviewedMeanwhile(known, now, new Set([8]))).toEqual([]);
    expect(reviewedMeanwhile({ timezone: null }, {}, new Set())).toEqual([]);
  });
});
