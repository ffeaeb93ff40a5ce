import type { KeyHelp } from "@/app/_components/KeysHelp";
import { LABEL_KEYS } from "@/lib/review/humanLabel";
import { FIXTURE_KEY_HELP } from "@/lib/review/keys";

/** The review keys of the trace page, listed by `?` beside the navigation keys. */
export const REVIEW_KEYS: KeyHelp[] = [
  {
    key: "1 – 6",
    does: `relabel the focused field (${LABEL_KEYS.map((l, i) => `${i + 1} ${l}`).join(", ")}), then go to the next trace`,
  },
  { key: "Shift + 1 – 6", does: "relabel the focused field and stay on this trace" },
  {
    key: "x",
    does: "clear the focused field's review (back to the imported label, if any) and stay on this trace",
  },
  { key: "f / Shift + f", does: "focus the next / previous field" },
  { key: "n", does: "write a note for your next review (Enter keeps it, Esc drops it)" },
  { key: "z", does: "undo your last review (goes back to its trace)" },
  { key: "Enter", does: "after a conflict: save yours over the other review" },
  ...FIXTURE_KEY_HELP,
];

/** The label a key names (1-6, top row or keypad), whatever Shift does to its character. */
export function labelIndexOf(e: KeyboardEvent): number | null {
  const m = /^(?:Digit|Numpad)([1-6])$/.exec(e.code) ?? /^([1-6])$/.exec(e.key);
  return m ? Number(m[1]) - 1 : null;
}
