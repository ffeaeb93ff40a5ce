import { type FileHandle, mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A temporary file a stream is written to when its format must be read with random access (an
 * Inspect `.eval` zip from an upload or standard input: a zip is read from its end). Removed by
 * `remove()`, which the caller runs in a `finally`, whatever happened.
 */
export class Spool {
  private constructor(
    readonly path: string,
    private readonly dir: string,
    private file: FileHandle | null,
  ) {}

  static async create(): Promise<Spool> {
    const dir = await mkdtemp(join(tmpdir(), "assumeprobe-spool-"));
    const path = join(dir, "source");
    return new Spool(path, dir, await open(path, "wx", 0o600));
  }

  async write(chunk: Buffer): Promise<void> {
    if (!this.file) throw new Error("the spool is closed");
    let at = 0;
    while (at < chunk.length) at += (await this.file.write(chunk, at, chunk.length - at)).bytesWritten;
  }

  /** Ends writing: the file can now be read. */
  async close(): Promise<void> {
    await this.file?.close();
    this.file = null;
  }

  async remove(): Promise<void> {
    await this.close().catch(() => {});
    await rm(this.dir, { recursive: true, force: true });
  }
}
