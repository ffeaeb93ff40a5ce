import type { Label } from "../probe/schema";
import { LABEL_KEYS } from "./humanLabel";

/**
 * The review keyboard, one map for every page that relabels (the trace page and the review
 * queue), so a reviewer's hands learn it once. Keys with Ctrl, Alt or Meta, and keys typed into a
 * field, are never shortcuts (app/_components/keyboard.ts).
 *
 * 1-6 label the focused field in DESIGN.md's order and go on (to the next trace of the filter, or
 * the queue's next item); with Shift they label and stay. x clears and stays, f / Shift+f move between
 * fields, n opens a note for the next review, z undoes this tab's last review, Enter after a
 * conflict saves over the other review. The trace page keeps j / k / u to move; the queue adds
 * s (skip) and o (open the trace page). No key does two things (keys.test.ts). Both pages read
 * keys through `reviewAction` (app/_review/useReviewing.ts) and list them from here.
 */

export type ReviewAction =
  | { kind: "label"; label: Label; stay: boolean }
  | { kind: "clear" }
  | { kind: "nextField" }
  | { kind: "prevField" }
  | { kind: "note" }
  | { kind: "undo" }
  | { kind: "resubmit" };

export type QueueAction = { kind: "skip" } | { kind: "open" };

/** What the keyboard handlers read of a KeyboardEvent. */
export interface KeyPress {
  key: string;
  code?: string;
  shiftKey?: boolean;
}

export const REVIEW_KEYS = { clear: "x", field: "f", note: "n", undo: "z", resubmit: "Enter" } as const;
export const QUEUE_KEYS = { skip: "s", open: "o" } as const;

/** Adding a reviewed field to a fixture set: `a` to the last set used, Shift+A to choose one. */
export const FIXTURE_KEYS = { addToSet: "a", chooseSet: "A" } as const;

/** Keys the trace page uses to move between traces, and the help list. */
export const TRACE_NAV_KEYS = ["j", "k", "u", "?"] as const;

/** The label a key names (1-6, top row or keypad), whatever Shift does to its character. */
export function labelIndexOf(e: KeyPress): number | null {
  const m = /^(?:Digit|Numpad)([1-6])$/.exec(e.code ?? "") ?? /^([1-6])$/.exec(e.key);
  return m ? Number(m[1]) - 1 : null;
}

/** The key a label is given with. */
export function keyOfLabel(label: Label): string {
  return String(LABEL_KEYS.indexOf(label) + 1);
}

/** What a key does on a page that relabels, or null. `conflict`: a conflict is shown (Enter saves over it). */
export function reviewAction(e: KeyPress, conflict = false): ReviewAction | null {
  const i = labelIndexOf(e);
  if (i !== null) return { kind: "label", label: LABEL_KEYS[i], stay: Boolean(e.shiftKey) };
  switch (e.key) {
    case REVIEW_KEYS.clear:
      return { kind: "clear" };
    case REVIEW_KEYS.field:
      return { kind: "nextField" };
    case REVIEW_KEYS.field.toUpperCase():
      return { kind: "prevField" };
    case REVIEW_KEYS.note:
      return { kind: "note" };
    case REVIEW_KEYS.undo:
      return { kind: "undo" };
    case REVIEW_KEYS.resubmit:
      return conflict ? { kind: "resubmit" } : null;
    default:
      return null;
  }
}

/** What a key does on the review queue beyond relabelling, or null. */
export function queueAction(e: KeyPress): QueueAction | null {
  if (e.key === QUEUE_KEYS.skip) return { kind: "skip" };
  if (e.key === QUEUE_KEYS.open) return { kind: "open" };
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

/** The relabelling keys as a page's `?` list shows them; `onward` says where 1-6 go on to. */
export function reviewKeyHelp(onward: string): KeyHelpRow[] {
  return [
    {
      key: "1 – 6",
      does: `relabel the focused field (${LABEL_KEYS.map((l, i) => `${i + 1} ${l}`).join(", ")}), then go on to ${onward}`,
    },
    { key: "Shift + 1 – 6", does: "relabel the focused field and stay on this trace" },
    {
      key: REVIEW_KEYS.clear,
      does: "clear the focused field's review (back to the imported label, if any) and stay on this trace",
    },
    { key: "f / Shift + f", does: "focus the next / previous field" },
    { key: REVIEW_KEYS.note, does: "write a note for your next review (Enter keeps it, Esc drops it)" },
    { key: REVIEW_KEYS.undo, does: "undo your last review in this tab (goes back to its trace)" },
    { key: REVIEW_KEYS.resubmit, does: "after a conflict: save yours over the other review" },
  ];
}

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

/** The trace page's review keys, which its `?` list shows beside j / k / u. */
export const TRACE_REVIEW_KEY_HELP: KeyHelpRow[] = [
  ...reviewKeyHelp("the next trace of the filter"),
  ...FIXTURE_KEY_HELP,
];

/** The queue's `?` list: the same review keys, then the queue's own. */
export const QUEUE_REVIEW_KEY_HELP: KeyHelpRow[] = [
  ...reviewKeyHelp("the queue's next item"),
  ...QUEUE_KEY_HELP,
  ...FIXTURE_KEY_HELP.map((k) => ({
    ...k,
    does: k.does.replace("the field", "the field you labelled last"),
  })),
  { key: "?", does: "show this list" },
  { key: "Esc", does: "close this list" },
];

/** Where the browser remembers the fixture set a field was last added to. */
export const FIXTURE_SET_STORAGE_KEY = "assumeprobe.fixtureSet";

/** Where the browser remembers the reviewer's name (asked once; a token server's session overrides it). */
export const REVIEWER_STORAGE_KEY = "assumeprobe.reviewer";
