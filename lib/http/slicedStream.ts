/**
 * JSON lines from batches of rows as a response body that shares the server's one thread: each
 * pull serializes rows for at most `sliceMs` (or `sliceBytes`), hands the chunk over, then yields
 * to the event loop (setImmediate) so requests that arrived meanwhile run before the next slice.
 * When others are being answered (`othersBusy`: more requests in flight than this one), the
 * export also steps aside for `shareBack` times the slice it just took, so a page being rendered,
 * which needs many turns of the loop, is not slowed by one slice per turn. Alone, an export runs
 * at full speed. A yield that comes back late (other callbacks ran meanwhile) counts as busy too:
 * a request being parsed is not counted yet, and the counting needs instrumentation.ts.
 * (A stream that pulled again at once would run its slices back to back on microtasks, and a
 * 100 MB export would hold every other request for its whole length.)
 */
export function slicedJsonl<T>(
  batches: Generator<T[]>,
  {
    sliceMs = 4,
    sliceBytes = 256 * 1024,
    shareBack = 4,
    othersBusy,
  }: { sliceMs?: number; sliceBytes?: number; shareBack?: number; othersBusy?: () => boolean } = {},
): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const start = performance.now();
        const parts: string[] = [];
        let size = 0;
        while (size < sliceBytes && performance.now() - start < sliceMs) {
          const r = batches.next();
          if (r.done) {
            if (parts.length) controller.enqueue(enc.encode(parts.join("")));
            controller.close();
            return;
          }
          for (const row of r.value) {
            const line = `${JSON.stringify(row)}\n`;
            parts.push(line);
            size += line.length;
          }
        }
        controller.enqueue(enc.encode(parts.join("")));
        const spent = performance.now() - start;
        const before = performance.now();
        await yieldToLoop();
        // Others are being answered, or the turn came back late (they ran meanwhile).
        const busy = othersBusy?.() || performance.now() - before > 1;
        if (busy) await sleep(Math.min(50, spent * shareBack));
      },
      cancel() {
        batches.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}
