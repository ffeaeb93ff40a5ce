/**
 * The reviews this tab made, newest last, so `z` can undo the last one after the page moved on.
 * Kept in sessionStorage: one tab's own history, gone when the tab closes.
 */
export interface UndoEntry {
  traceId: number;
  field: string;
  reviewId: number;
  /** What it wrote (null: a clear), for the status line. */
  label: string | null;
  /** The page it was made on (with its filter), to go back to. */
  href: string;
}

const KEY = "assumeprobe.reviewUndo";
const FLASH = "assumeprobe.reviewFlash";
const MAX = 200;

function read(): UndoEntry[] {
  try {
    const v = JSON.parse(sessionStorage.getItem(KEY) ?? "[]");
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

export function pushUndo(e: UndoEntry): void {
  const list = read();
  list.push(e);
  sessionStorage.setItem(KEY, JSON.stringify(list.slice(-MAX)));
}

export function popUndo(): UndoEntry | undefined {
  const list = read();
  const e = list.pop();
  sessionStorage.setItem(KEY, JSON.stringify(list));
  return e;
}

export function peekUndo(): UndoEntry | undefined {
  return read().at(-1);
}

/** A message for the next page (after a review moved on), read once. */
export function setFlash(message: string): void {
  sessionStorage.setItem(FLASH, message);
}

export function takeFlash(): string {
  const m = sessionStorage.getItem(FLASH) ?? "";
  sessionStorage.removeItem(FLASH);
  return m;
}
