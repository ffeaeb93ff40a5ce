import { describe, expect, it } from "vitest";
import { slicedJsonl } from "./slicedStream";

function* batches(n: number, size: number, onReturn?: () => void) {
  try {
    for (let i = 0; i < n; i++)
      yield Array.from({ length: size }, (_, j) => ({ i, j, pad: "x".repeat(200) }));
  } finally {
    onReturn?.();
  }
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<{ text: string; chunks: number }> {
  const dec = new TextDecoder();
  let text = "";
  let chunks = 0;
  for await (const c of stream as unknown as AsyncIterable<Uint8Array>) {
    text += dec.decode(c, { stream: true });
    chunks++;
  }
  return { text, chunks };
}

describe("slicedJsonl", () => {
  it("writes every row as one JSON line, in order, in several slices", async () => {
    const { text, chunks } = await readAll(slicedJsonl(batches(300, 100), { sliceBytes: 64 * 1024 }));
    const lines = text.trimEnd().split("\n");
    expect(lines.length).toBe(30_000);
    expect(JSON.parse(lines[0])).toMatchObject({ i: 0, j: 0 });
    expect(JSON.parse(lines[29_999])).toMatchObject({ i: 299, j: 99 });
    expect(chunks).toBeGreaterThan(10);
  });

  it("lets timers and I/O run between slices", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const started = performance.now();
    await readAll(slicedJsonl(batches(2000, 50)));
    clearInterval(timer);
    // A stream that never yielded would let the interval fire at most once after it ended.
    expect(ticks).toBeGreaterThan(Math.min(20, (performance.now() - started) / 10));
  });

  it("steps aside after each slice while others are busy, and not when alone", async () => {
    let asked = 0;
    const t0 = performance.now();
    await readAll(
      slicedJsonl(batches(400, 10), {
        sliceBytes: 8 * 1024,
        othersBusy: () => {
          asked++;
          return false;
        },
      }),
    );
    const alone = performance.now() - t0;
    const slices = asked;
    expect(slices).toBeGreaterThanOrEqual(50);
    const t1 = performance.now();
    await readAll(slicedJsonl(batches(400, 10), { sliceBytes: 8 * 1024, othersBusy: () => true }));
    const shared = performance.now() - t1;
    // Each busy slice waits at least a timer's turn (1 ms) on top of what it took alone.
    expect(shared - alone).toBeGreaterThan(slices * 0.5);
  });

  it("stops reading the batches when the reader cancels", async () => {
    let returned = false;
    const stream = slicedJsonl(
      batches(1_000_000, 10, () => {
        returned = true;
      }),
    );
    const reader = stream.getReader();
    await reader.read();
    await reader.cancel();
    expect(returned).toBe(true);
  });
});
