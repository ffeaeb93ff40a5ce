/**
 * JSON lines from batches of rows as a response body that shares the server's one thread: each
 * pull serializes rows for at most `sliceMs` (or `sliceBytes`), hands the chunk over, then yields
 * to the event loop (setImmediate) so requests that arrived meanwhile run before the next slice.
 * A stream that pulled again at once would run its slices back to back on microtasks, and a 100 MB
 * export would hold every other request for its whole length.
 */
export function slicedJsonl<T>(
  batches: Generator<T[]>,
  { sliceMs = 8, sliceBytes = 256 * 1024 } = {},
): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
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
        await yieldToLoop();
      },
      cancel() {
        batches.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}
