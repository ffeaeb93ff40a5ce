import type { Writable } from "node:stream";

/**
 * Thrown by a LineWriter once its stream is closed (`assumeprobe export RUN | head` after head
 * exits): main() ends the command quietly, with the exit code it had so far.
 */
export class OutputClosed extends Error {
  constructor() {
    super("the output was closed");
  }
}

const closedStreams = new WeakSet<Writable>();
const watched = new WeakSet<Writable>();

/** Whether the reader of a stream went away (EPIPE), or the stream otherwise stopped taking writes. */
export function isClosed(stream: Writable): boolean {
  return closedStreams.has(stream) || stream.destroyed || stream.writableEnded;
}

/**
 * Keeps a stream's write errors from ending the process with a stack trace: a reader that went
 * away (EPIPE) marks it closed; any other error too, after one line on standard error. main()
 * watches standard output and standard error, so every command gets this.
 */
export function watchOutput(stream: Writable): void {
  if (watched.has(stream)) return;
  watched.add(stream);
  stream.on("error", (e: NodeJS.ErrnoException) => {
    const quiet = e.code === "EPIPE" || e.code === "ERR_STREAM_DESTROYED" || closedStreams.has(stream);
    closedStreams.add(stream);
    if (quiet) return;
    process.exitCode = process.exitCode || 1;
    if (stream !== process.stderr && !isClosed(process.stderr))
      process.stderr.write(`assumeprobe: cannot write the output: ${e.message}\n`);
  });
}

/**
 * Buffers lines and writes them in large chunks, waiting when the reader is slower than us; throws
 * OutputClosed once the reader has gone, so a long command stops instead of working for no one.
 */
export class LineWriter {
  private buf: string[] = [];
  private size = 0;
  constructor(
    private readonly out: Writable,
    private readonly flushAt = 1 << 16,
  ) {
    watchOutput(out);
  }

  async line(s: string): Promise<void> {
    if (isClosed(this.out)) throw new OutputClosed();
    this.buf.push(s);
    this.size += s.length + 1;
    if (this.size >= this.flushAt) await this.flush();
  }

  async flush(): Promise<void> {
    if (isClosed(this.out)) throw new OutputClosed();
    if (this.buf.length === 0) return;
    const chunk = `${this.buf.join("\n")}\n`;
    this.buf = [];
    this.size = 0;
    if (this.out.write(chunk)) return;
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        this.out.off("drain", done);
        this.out.off("close", done);
        this.out.off("error", done);
        if (isClosed(this.out)) reject(new OutputClosed());
        else resolve();
      };
      this.out.on("drain", done);
      this.out.on("close", done);
      this.out.on("error", done);
    });
  }
}
