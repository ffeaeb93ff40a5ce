import type { Label } from "../probe/schema";
import { LABEL_KEYS } from "./humanLabel";

/**
 * The review keyboard, one map for every page that relabels (the trace page and the review
 * queue), so a reviewer's hands learn it once. Keys with a modifier, and keys typed into a field,
 * are never shortcuts (app/_components/keyboard.ts).
 *
 * The trace page's own navigation keeps j / k / u; the queue adds skip and open. None of these
 * collide (keys.test.ts checks).
 */

export type ReviewAction =
  | { kind: "label"; label: Label }
  | { kind: "clear" }
  | { kind: "nextField" }
  | { kind: "prevField" }
  | { kind: "note" }
  | { kind: "undo" };

export type QueueAction = { kind: "skip" } | { kind: "open" };

/** `1`-`6`: the labels in DESIGN.md's order (ASK, OMIT, COPY, INJECT, DRIFT, ERROR). */
export const LABEL_KEY: Readonly<Record<string, Label>> = Object.fromEntries(
  LABEL_KEYS.map((l, i) => [String(i + 1), l]),
);

export const REVIEW_KEYS = {
  clear: "0",
  nextField: "f",
  prevField: "F",
  note: "n",
  undo: "z",
} as const;

export const QUEUE_KEYS = { skip: "s", open: "o" } as const;

/** Adding a reviewed field to a fixture set: `a` to the last set used, Shift+A to choose one. */
export const FIXTURE_KEYS = { addToSet: "a", chooseSet: "A" } as const;

/** Keys the trace page already uses for moving between traces and the help list. */
export const TRACE_NAV_KEYS = ["j", "k", "u", "?"] as const;

/** The key a label is given with. */
export function keyOfLabel(label: Label): string {
  return String(LABEL_KEYS.indexOf(label) + 1);
}

/** What a key does on a page that relabels, or null for none. */
export function reviewAction(key: string): ReviewAction | null {
  const label = LABEL_KEY[key];
  if (label) return { kind: "label", label };
  switch (key) {
    case REVIEW_KEYS.clear:
      return { kind: "clear" };
    case REVIEW_KEYS.nextField:
      return { kind: "nextField" };
    case REVIEW_KEYS.prevField:
      return { kind: "prevField" };
    case REVIEW_KEYS.note:
      return { kind: "note" };
    case REVIEW_KEYS.undo:
      return { kind: "undo" };
    default:
      return null;
  }
}

/** What a key does on the review queue beyond relabelling, or null. */
export function queueAction(key: string): QueueAction | null {
  if (key === QUEUE_KEYS.skip) return { kind: "skip" };
  if (key === QUEUE_KEYS.open) return { kind: "open" };
  return null;
}

export type FixtureAction = { kind: "addToSet" } | { kind: "chooseSet" };

/** What a key does for fixture sets (on the trace page and the queue), or null. */
export function fixtureAction(key: string): FixtureAction | null {
  if (key === FIXTURE_KEYS.addToSet) return { kind: "addToSet" };
  if (key === FIXTURE_KEYS.chooseSet) return { kind: "chooseSet" };
  return null;
}

export interface KeyHelpRow {
  key: string;
  does: string;
}

/** The relabelling keys as the `?` list shows them. */
export const REVIEW_KEY_HELP: readonly KeyHelpRow[] = [
  ...LABEL_KEYS.map((l, i) => ({ key: String(i + 1), does: `label the focused field ${l}` })),
  { key: REVIEW_KEYS.clear, does: "clear the focused field's review (back to the imported label, if any)" },
  { key: REVIEW_KEYS.nextField, does: "focus the next field" },
  { key: `Shift+${REVIEW_KEYS.prevField.toLowerCase()}`, does: "focus the previous field" },
  { key: REVIEW_KEYS.note, does: "write a note for the next label (Enter keeps it)" },
  { key: REVIEW_KEYS.undo, does: "undo your last review here" },
];

export const QUEUE_KEY_HELP: readonly KeyHelpRow[] = [
  { key: QUEUE_KEYS.skip, does: "skip to the next item (this one stays in the queue)" },
  { key: QUEUE_KEYS.open, does: "open the whole trace page" },
];

export const FIXTURE_KEY_HELP: readonly KeyHelpRow[] = [
  {
    key: FIXTURE_KEYS.addToSet,
    does: "add the field to the fixture set you used last, its human label expected",
  },
  { key: `Shift+${FIXTURE_KEYS.addToSet}`, does: "choose the fixture set (or name a new one), then add" },
];

/** Where the browser remembers the fixture set a field was last added to. */
export const FIXTURE_SET_STORAGE_KEY = "assumeprobe.fixtureSet";

/** Where the browser remembers the reviewer's name (asked once; a token server's session overrides it). */
export const REVIEWER_STORAGE_KEY = "assumeprobe.reviewer";
