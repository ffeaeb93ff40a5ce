import { describe, expect, it } from "vitest";
import type { ReviewJson } from "./contract";
import {
  notUndoneMessage,
  overConflicts,
  savedMessage,
  type UndoEntry,
  undoItem,
  undoneMessage,
} from "./reviewing";

const review = (id: number, field: string, label: string | null, reviewer = "ana"): ReviewJson => ({
  id,
  trace_id: 7,
  field,
  label,
  reviewer,
  note: "",
  replaces: null,
  created_at: "2026-12-01T10:00:00Z",
});

describe("the rules every page that reviews shares", () => {
  const entry: UndoEntry = {
    traceId: 7,
    field: "timezone",
    reviewId: 41,
    label: "COPY",
    href: "/review?trace=7",
  };

  it("undoes a review by naming it as the base, whatever page it was made on", () => {
    expect(undoItem(entry)).toEqual({ field: "timezone", label: null, base: 41, undo: true });
  });

  it("resubmits over a conflict: the conflicting fields take the review shown as their base, the others keep theirs", () => {
    const items = [
      { field: "timezone", label: "ASK" as const, base: 3 },
      { field: "severity", label: "OMIT" as const, base: null },
      { field: "region", label: null, base: 9, undo: true },
    ];
    expect(
      overConflicts(items, [
        { field: "timezone", current: review(5, "timezone", "DRIFT") },
        { field: "region", current: null },
      ]),
    ).toEqual([
      { field: "timezone", label: "ASK", base: 5 },
      { field: "severity", label: "OMIT", base: null },
      { field: "region", label: null, base: null, undo: true },
    ]);
  });

  it("says what was saved, undone or not undone, naming the trace", () => {
    expect(
      savedMessage(
        7,
        [
          { field: "timezone", label: "ASK" },
          { field: "severity", label: null },
        ],
        true,
      ),
    ).toBe("Saved on #7: timezone ASK, severity cleared (with a note). z undoes it.");
    expect(savedMessage(7, [{ field: "timezone", label: "ASK" }], false)).toBe(
      "Saved on #7: timezone ASK. z undoes it.",
    );
    expect(undoneMessage(entry, null)).toBe("Undone on #7: timezone COPY, now cleared.");
    expect(undoneMessage({ ...entry, label: null }, "ASK")).toBe("Undone on #7: timezone cleared, now ASK.");
    expect(notUndoneMessage(entry, "bo")).toBe("Not undone: bo reviewed timezone of #7 since. Here it is.");
    expect(notUndoneMessage(entry, undefined)).toMatch(/^Not undone: someone reviewed/);
  });
});
