import { closeSync, createReadStream, openSync, readSync, statSync } from "node:fs";
import { basename } from "node:path";
import { PassThrough, type Readable, type Transform } from "node:stream";
import { createGunzip } from "node:zlib";

/** The source name used in record identity: the file's base name without `.gz` and one extension. */
export function sourceName(path: string): string {
  if (path === "-") return "stdin";
  let name = basename(path);
  if (name.toLowerCase().endsWith(".gz")) name = name.slice(0, -3);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}

export class SourceError extends Error {}

function isGzipMagic(b: Buffer): boolean {
  return b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
}

/** Checks that a file can be read, with a message that says why not. */
export function checkReadable(path: string): void {
  if (path === "-") return;
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new SourceError(`${path}: ${code === "ENOENT" ? "no such file" : `cannot read (${code})`}`);
  }
  if (st.isDirectory()) throw new SourceError(`${path}: is a directory, not a file`);
  try {
    closeSync(openSync(path, "r"));
  } catch (e) {
    throw new SourceError(`${path}: cannot read (${(e as NodeJS.ErrnoException).code})`);
  }
}

/** A byte stream of the file (or stdin for `-`), gunzipped when it starts with the gzip magic. */
export function openSource(path: string, stdin: Readable = process.stdin): Readable {
  if (path === "-") return maybeGunzip(stdin);
  checkReadable(path);
  return maybeGunzip(createReadStream(path, { highWaterMark: 1 << 20 }));
}

/**
 * Why a stream from `openSource` or `maybeGunzip` stopped early, read once it has ended: such a
 * stream ends normally after delivering all it had read before the failure (an error would make it
 * drop what it still buffers), and the reason is kept here.
 */
const failures = new WeakMap<Readable, Error>();

/**
 * The chunks of a source, ending early when reading it fails, with the reason in `read.failure`:
 * opening it (a file can vanish between the command's check and here), a read error, or a
 * failure the stream itself kept (see `failures`). A consumer that stops early (a failed write) stops the reading too.
 */
export async function* chunksOf(
  src: { stream: Readable },
  read: { failure?: Error },
): AsyncGenerator<Buffer, void, undefined> {
  const toError = (e: unknown) => (e instanceof Error ? e : new Error(String(e)));
  let stream: Readable;
  try {
    // `src.stream` may open the source on each read: read it once.
    stream = src.stream;
  } catch (e) {
    read.failure = toError(e);
    return;
  }
  const chunks: AsyncIterator<Buffer> = stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<Buffer>;
      try {
        next = await chunks.next();
      } catch (e) {
        read.failure = toError(e);
        return;
      }
      if (next.done) break;
      yield next.value;
    }
  } finally {
    await chunks.return?.();
  }
  read.failure = failures.get(stream);
}

/**
 * A stream gunzipped when its first chunk has the gzip magic (stdin and uploads cannot be peeked,
 * so files are read the same way). When the gzip data is cut off or corrupt, or the input itself
 * fails (I/O, an upload past its limit or aborted), the stream ends after what was read before,
 * and `chunksOf` reports why.
 */
export function maybeGunzip(input: Readable): Readable {
  const out = new PassThrough({ highWaterMark: 1 << 20 });
  let target: NodeJS.WritableStream | null = null;
  let gunzip: Transform | null = null;
  const fail = (e: Error) => {
    if (failures.has(out)) return;
    failures.set(out, e);
    // Stop reading (a paused input would wait for a drain forever and hold its file open).
    input.removeAllListeners("data");
    input.destroy();
    gunzip?.unpipe(out);
    gunzip?.destroy();
    out.end();
  };
  input.on("data", (chunk: Buffer) => {
    if (!target) {
      if (isGzipMagic(chunk)) {
        gunzip = createGunzip();
        gunzip.on("error", (e) => fail(new SourceError(`not valid gzip: ${e.message}`)));
        gunzip.pipe(out);
        target = gunzip;
      } else target = out;
    }
    if (!target.write(chunk)) {
      input.pause();
      (target as PassThrough).once("drain", () => input.resume());
    }
  });
  input.on("end", () => (target ?? out).end());
  input.on("error", (e) => fail(e));
  return out;
}

/** A file's first `n` bytes (fewer when it is shorter). */
function fileHead(path: string, n: number): Buffer {
  const head = Buffer.alloc(n);
  const fd = openSync(path, "r");
  try {
    return head.subarray(0, readSync(fd, head, 0, n, 0));
  } finally {
    closeSync(fd);
  }
}

/** The size of a file on disk (null for stdin or a gzip file, whose content size is unknown). */
export function sourceSize(path: string): number | null {
  if (path === "-") return null;
  return isGzipMagic(fileHead(path, 2)) ? null : statSync(path).size;
}

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** Whether the file on disk is a zip, so it can be read in place (an Inspect `.eval`), with no copy. */
export function fileIsZip(path: string): boolean {
  try {
    return fileHead(path, 4).equals(ZIP_MAGIC);
  } catch {
    return false;
  }
}
