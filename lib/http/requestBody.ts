/**
 * Reading a request body whole, up to a limit, the one way every route that takes a file does it
 * (the upload and the fixture import): the body's chunks as they arrive, and a `BodyStopped` error
 * once it stops short (past the limit, shorter than the length it declared, the client gone), after
 * every byte that arrived before the stop (up to the limit) was given out.
 */

/** Why a body stopped before its end: `over` past the size limit, else cut off. */
export class BodyStopped extends Error {
  constructor(
    message: string,
    readonly over: boolean,
    /** The bytes given out before the stop. */
    readonly bytes: number,
  ) {
    super(message);
    this.name = "BodyStopped";
  }
}

export const megabytes = (bytes: number) => Math.round(bytes / 1048576);

/** The Content-Length a request declared, or null (chunked, or not a number). */
export function declaredLength(headers: Headers): number | null {
  const raw = headers.get("content-length");
  if (raw === null || !/^\d+$/.test(raw.trim())) return null;
  return Number(raw);
}

export interface BodyLimit {
  /** The most bytes taken: past it the body stops with `over`. */
  max: number;
  /** The Content-Length the request declared: a body that ends short of it was cut off. */
  declared: number | null;
  /** Names the limit in the message (an environment variable, say). */
  limitName?: string;
}

/**
 * The body's chunks. Throws `BodyStopped` after the last byte that counts: past `max` (the part of
 * the chunk before the limit is given out first), when the stream fails (a client that went away),
 * or when it ends short of the declared length.
 *
 * The stream is drained as fast as it delivers, into a queue of our own, however slowly the chunks
 * are taken: Next.js's request stream queues every chunk that arrives (it has no back-pressure) and
 * drops its whole queue when the client goes away, which lost complete lines that had arrived. The
 * memory is the same either way (the chunks wait here instead of there).
 */
/** How much of a body past its limit is still read (and dropped) so its client gets the answer. */
export const DRAIN_BYTES = 64 * 1024 * 1024;

export async function* readBody(
  body: ReadableStream<Uint8Array>,
  limit: BodyLimit,
): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  const queue: Uint8Array[] = [];
  let ended: { error?: unknown } | null = null;
  const waiting: { wake?: () => void } = {};
  let stopping = false;
  // Past the limit the rest is read and dropped (up to DRAIN_BYTES), not refused: a client still
  // sending when the answer goes out would otherwise have its connection reset and lose the 413.
  let draining = false;
  let drained = 0;
  const pump = (async () => {
    try {
      for (;;) {
        const r = await reader.read();
        if (r.done || stopping) break;
        if (draining) {
          drained += r.value.length;
          if (drained > DRAIN_BYTES) break;
          continue;
        }
        queue.push(r.value);
        waiting.wake?.();
      }
      ended = {};
    } catch (e) {
      ended = { error: e };
    }
    waiting.wake?.();
  })();
  let seen = 0;
  let over = false;
  const cutOff = (why: string) => {
    const of = limit.declared !== null ? ` of the ${limit.declared} it declared` : "";
    return new BodyStopped(`the upload arrived cut off after ${seen} bytes${of}${why}`, false, seen);
  };
  try {
    for (;;) {
      while (queue.length === 0 && ended === null) await new Promise<void>((r) => (waiting.wake = r));
      waiting.wake = undefined;
      const chunk = queue.shift();
      if (chunk === undefined) {
        const failed = (ended as { error?: unknown } | null)?.error;
        if (failed !== undefined)
          throw cutOff(` (${failed instanceof Error ? failed.message : String(failed)})`);
        break;
      }
      if (seen + chunk.length > limit.max) {
        const room = limit.max - seen;
        if (room > 0) yield chunk.subarray(0, room);
        seen = limit.max;
        over = true;
        const named = limit.limitName ? ` (${limit.limitName})` : "";
        throw new BodyStopped(
          `the file is over the upload limit of ${megabytes(limit.max)} MB${named}: it stopped after ${limit.max} bytes`,
          true,
          seen,
        );
      }
      seen += chunk.length;
      yield chunk;
    }
    if (limit.declared !== null && seen !== limit.declared) throw cutOff("");
  } finally {
    queue.length = 0;
    if (over) {
      // Not awaited: the answer goes out while what the client still sends is dropped.
      draining = true;
      void pump.then(() => reader.cancel().catch(() => {}));
    } else {
      stopping = true;
      void reader.cancel().catch(() => {});
      await pump;
    }
  }
}

/**
 * The body's complete lines only: what follows the last line ending is held back until the body
 * ends whole, and dropped (with `stopped` set) when it stops short, so a line cut in two at the
 * limit or at a disconnect is never taken for a whole one.
 */
export async function* wholeLines(
  chunks: AsyncIterable<Uint8Array>,
  state: { stopped?: BodyStopped },
): AsyncGenerator<Buffer> {
  let tail: Buffer[] = [];
  try {
    for await (const chunk of chunks) {
      const b = Buffer.from(chunk);
      const nl = b.lastIndexOf(10);
      if (nl < 0) {
        tail.push(b);
        continue;
      }
      yield Buffer.concat([...tail, b.subarray(0, nl + 1)]);
      tail = nl + 1 < b.length ? [b.subarray(nl + 1)] : [];
    }
  } catch (e) {
    if (!(e instanceof BodyStopped)) throw e;
    state.stopped = e;
    return;
  }
  if (tail.length > 0) yield Buffer.concat(tail);
}
