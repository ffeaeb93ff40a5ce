import type { Writable } from "node:stream";

/** Buffers lines and writes them in large chunks, waiting when the reader is slower than us. */
export class LineWriter {
  private buf: string[] = [];
  private size = 0;
  constructor(
    private readonly out: Writable,
    private readonly flushAt = 1 << 16,
  ) {}

  async line(s: string): Promise<void> {
    this.buf.push(s);
    this.size += s.length + 1;
    if (this.size >= this.flushAt) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.buf.length === 0) return;
    const chunk = `${this.buf.join("\n")}\n`;
    this.buf = [];
    this.size = 0;
    if (!this.out.write(chunk)) await new Promise<void>((resolve) => this.out.once("drain", resolve));
  }
}
