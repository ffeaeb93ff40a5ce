/**
 * The reviews this browser tab wrote from the queue, newest last, so `z` can undo them in turn
 * (sessionStorage: a tab's own, gone when it closes). Undo itself is a review through the one
 * write path; this only remembers which review to name as its base.
 */
export interface UndoEntry {
  traceId: number;
  field: string;
  /** The review we wrote: undo names it as the base, so a later review by anyone else conflicts. */
  reviewId: number;
  label: string | null;
}

const KEY = "assumeprobe.queue.undo";
const MAX = 100;

function read(): UndoEntry[] {
  try {
    const v = JSON.parse(sessionStorage.getItem(KEY) ?? "[]");
    return Array.isArray(v) ? (v as UndoEntry[]) : [];
  } catch {
    return [];
  }
}

function write(list: UndoEntry[]): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(list.slice(-MAX)));
  } catch {
    // Storage full or denied: undo only loses its memory.
  }
}

export function pushUndo(e: UndoEntry): void {
  write([...read(), e]);
}

export function peekUndo(): UndoEntry | undefined {
  return read().at(-1);
}

export function popUndo(): UndoEntry | undefined {
  const list = read();
  const top = list.pop();
  write(list);
  return top;
}

const STATUS_KEY = "assumeprobe.queue.status";

/** The last thing the queue said (saved, undone), kept across the page's moves to the next item. */
export function keptStatus(): string {
  try {
    return sessionStorage.getItem(STATUS_KEY) ?? "";
  } catch {
    return "";
  }
}

export function keepStatus(s: string): void {
  try {
    sessionStorage.setItem(STATUS_KEY, s);
  } catch {
    // Storage denied: the message shows until the next item only.
  }
}
