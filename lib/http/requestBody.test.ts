import { describe, expect, it } from "vitest";
import { BodyStopped, declaredLength, readBody, wholeLines } from "./requestBody";

/** A web stream of these chunks, failing after them when `fail` is given (a client gone). */
function stream(chunks: string[], fail?: Error): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(c) {
      if (i < chunks.length) c.enqueue(new TextEncoder().encode(chunks[i++]));
      else if (fail) c.error(fail);
      else c.close();
    },
  });
}

async function drain(it: AsyncIterable<Uint8Array>): Promise<{ text: string; error?: unknown }> {
  let text = "";
  try {
    for await (const c of it) text += Buffer.from(c).toString("utf8");
  } catch (e) {
    return { text, error: e };
  }
  return { text };
}

describe("readBody", () => {
  it("gives the whole body when it ends at its declared length", async () => {
    const r = await drain(readBody(stream(["a\nb", "\nc\n"]), { max: 100, declared: 6 }));
    expect(r).toEqual({ text: "a\nb\nc\n" });
  });

  it("past the limit: every byte up to it, then a stop that names the limit", async () => {
    const r = await drain(
      readBody(stream(["aaaa", "bbbb", "cccc"]), { max: 10, declared: null, limitName: "X_MB" }),
    );
    expect(r.text).toBe("aaaabbbbcc");
    expect(r.error).toBeInstanceOf(BodyStopped);
    expect((r.error as BodyStopped).over).toBe(true);
    expect((r.error as BodyStopped).message).toMatch(
      /over the upload limit of 0 MB \(X_MB\): it stopped after 10 bytes/,
    );
  });

  it("past the limit the rest is still read and dropped, so the client is not reset before its answer", async () => {
    let pulled = 0;
    let cancelled = false;
    const chunks = ["aaaa", "bbbb", "cccc", "dddd", "eeee"];
    const body = new ReadableStream<Uint8Array>({
      // A client still sending: each chunk arrives a little after the one before.
      async pull(c) {
        await new Promise((w) => setTimeout(w, 5));
        if (pulled < chunks.length) c.enqueue(new TextEncoder().encode(chunks[pulled++]));
        else c.close();
      },
      cancel() {
        cancelled = true;
      },
    });
    const r = await drain(readBody(body, { max: 6, declared: null }));
    expect(r.text).toBe("aaaabb");
    expect((r.error as BodyStopped).over).toBe(true);
    for (let i = 0; i < 200 && pulled < chunks.length; i++) await new Promise((w) => setTimeout(w, 5));
    expect(pulled).toBe(chunks.length);
    expect(cancelled).toBe(false);
  });

  it("a body shorter than it declared, or one whose client went away, stops as cut off after what arrived", async () => {
    const short = await drain(readBody(stream(["abc"]), { max: 100, declared: 10 }));
    expect(short.text).toBe("abc");
    expect((short.error as BodyStopped).message).toBe(
      "the upload arrived cut off after 3 bytes of the 10 it declared",
    );
    const gone = await drain(
      readBody(stream(["abc", "de"], new Error("aborted")), { max: 100, declared: null }),
    );
    expect(gone.text).toBe("abcde");
    expect((gone.error as BodyStopped).over).toBe(false);
    expect((gone.error as BodyStopped).message).toBe("the upload arrived cut off after 5 bytes (aborted)");
  });
});

describe("wholeLines", () => {
  it("keeps every line, the last one without its ending too, when the body ends whole", async () => {
    const state = {};
    const r = await drain(
      wholeLines(readBody(stream(["a\nb", "b\ncc"]), { max: 100, declared: null }), state),
    );
    expect(r.text).toBe("a\nbb\ncc");
    expect(state).toEqual({});
  });

  it("drops the line a stop cut in two, and says why it stopped", async () => {
    const state: { stopped?: BodyStopped } = {};
    const r = await drain(
      wholeLines(readBody(stream(["one\ntw", "o\nthr", "ee"]), { max: 12, declared: null }), state),
    );
    expect(r).toEqual({ text: "one\ntwo\n" });
    expect(state.stopped?.over).toBe(true);
    const gone: { stopped?: BodyStopped } = {};
    const g = await drain(
      wholeLines(readBody(stream(["one\ntw"], new Error("aborted")), { max: 100, declared: null }), gone),
    );
    expect(g.text).toBe("one\n");
    expect(gone.stopped?.over).toBe(false);
  });
});

describe("declaredLength", () => {
  it("reads a Content-Length of digits only", () => {
    expect(declaredLength(new Headers({ "content-length": "42" }))).toBe(42);
    for (const v of ["", "-1", "1e3", "12abc"])
      expect(declaredLength(new Headers({ "content-length": v }))).toBeNull();
    expect(declaredLength(new Headers())).toBeNull();
  });
});

describe("readBody when the client goes away while chunks wait", () => {
  it("keeps every chunk that arrived before the stream failed, however slowly they are taken", async () => {
    // Like Next.js's request stream: every chunk enqueued as it arrives, then an error that drops the queue.
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const s of ["one\n", "two\n", "three\n"]) c.enqueue(new TextEncoder().encode(s));
        setTimeout(() => c.error(new Error("aborted")), 5);
      },
    });
    let text = "";
    let error: unknown;
    try {
      for await (const c of readBody(body, { max: 100, declared: null })) {
        text += Buffer.from(c).toString("utf8");
        await new Promise((r) => setTimeout(r, 30));
      }
    } catch (e) {
      error = e;
    }
    expect(text).toBe("one\ntwo\nthree\n");
    expect((error as BodyStopped).message).toBe("the upload arrived cut off after 14 bytes (aborted)");
  });
});
