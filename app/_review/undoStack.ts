import type { UndoEntry } from "@/lib/review/reviewing";

/**
 * The tab's one undo stack: the reviews this browser tab wrote, on any page that reviews, newest
 * last, so `z` undoes the last one wherever the reviewer is now. Beside it, the status line of
 * the tab's last review, said again on the next page. Both in sessionStorage: one tab's own, gone
 * when the tab closes. Undo itself is a review through the one action; this only remembers which
 * review to name as its base.
 */
const UNDO_KEY = "assumeprobe.reviewUndo";
const STATUS_KEY = "assumeprobe.reviewStatus";
const MAX = 200;

function read(): UndoEntry[] {
  try {
    const v = JSON.parse(sessionStorage.getItem(UNDO_KEY) ?? "[]");
    return Array.isArray(v) ? (v as UndoEntry[]) : [];
  } catch {
    return [];
  }
}

function store(key: string, value: string): void {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    // Storage full or denied: undo and the status line only lose their memory.
  }
}

export function pushUndo(e: UndoEntry): void {
  store(UNDO_KEY, JSON.stringify([...read(), e].slice(-MAX)));
}

export function peekUndo(): UndoEntry | undefined {
  return read().at(-1);
}

export function popUndo(): UndoEntry | undefined {
  const list = read();
  const top = list.pop();
  store(UNDO_KEY, JSON.stringify(list));
  return top;
}

/** What the tab's last review said (saved, undone), for the page that comes next. */
export function keptStatus(): string {
  try {
    return sessionStorage.getItem(STATUS_KEY) ?? "";
  } catch {
    return "";
  }
}

export function keepStatus(s: string): void {
  store(STATUS_KEY, s);
}
